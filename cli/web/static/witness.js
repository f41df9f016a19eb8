// The witness in the browser: each page remembers (localStorage) the last checkpoint it saw of each
// campaign it shows (the size and root of the campaign's RFC 6962 Merkle tree) and checks, with the
// consistency proof the server gives (GET /proof), that the history now still extends it. A history that
// does not (or a server that cannot prove it does) is a loud banner, never silence: checked when the
// page opens, when an event arrives, when the page is shown again, and every half minute.
(function () {
  "use strict";
  var banner = document.getElementById("witness");
  var EVERY = 30000;
  var MEMORY = "chronicle.witness.";
  var warned = {};

  // SHA-256: WebCrypto where the page may use it, else this small implementation (pages opened over
  // plain http from another machine get no crypto.subtle).
  var K = [];
  (function () {
    var n = 2, found = 0;
    function frac(x) { return ((x - Math.floor(x)) * 4294967296) >>> 0; }
    while (found < 64) {
      var prime = true;
      for (var d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
      if (prime) K[found++] = frac(Math.pow(n, 1 / 3));
      n++;
    }
  })();
  var H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

  function sha256Plain(bytes) {
    var length = bytes.length, total = ((length + 9 + 63) >> 6) << 6;
    var data = new Uint8Array(total);
    data.set(bytes);
    data[length] = 0x80;
    var bits = length * 8;
    for (var i = 0; i < 8; i++) data[total - 1 - i] = Math.floor(bits / Math.pow(2, 8 * i)) & 0xff;
    var h = H0.slice(), w = new Array(64);
    function rotr(x, r) { return (x >>> r) | (x << (32 - r)); }
    for (var at = 0; at < total; at += 64) {
      for (var t = 0; t < 16; t++) {
        w[t] = (data[at + 4 * t] << 24) | (data[at + 4 * t + 1] << 16) | (data[at + 4 * t + 2] << 8) | data[at + 4 * t + 3];
      }
      for (t = 16; t < 64; t++) {
        var s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
        var s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var a = h[0], b = h[1], c = h[2], d2 = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (t = 0; t < 64; t++) {
        var t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
        var t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d2 + t1) | 0; d2 = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d2) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + hh) | 0;
    }
    var out = new Uint8Array(32);
    for (i = 0; i < 8; i++) {
      out[4 * i] = h[i] >>> 24; out[4 * i + 1] = (h[i] >>> 16) & 0xff; out[4 * i + 2] = (h[i] >>> 8) & 0xff; out[4 * i + 3] = h[i] & 0xff;
    }
    return out;
  }

  function sha256(bytes) {
    if (window.crypto && crypto.subtle) {
      return crypto.subtle.digest("SHA-256", bytes).then(function (digest) { return new Uint8Array(digest); });
    }
    return Promise.resolve(sha256Plain(bytes));
  }

  // An inner node of RFC 6962: SHA-256(0x01 || left || right).
  function node(left, right) {
    var joined = new Uint8Array(65);
    joined[0] = 1;
    joined.set(left, 1);
    joined.set(right, 33);
    return sha256(joined);
  }

  function same(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function half(n) { return Math.floor(n / 2); }
  function odd(n) { return n % 2 === 1; }
  function powerOfTwo(n) { while (n > 1 && n % 2 === 0) n /= 2; return n === 1; }

  // Whether PROOF shows the tree of OLD leaves (root OLDROOT) is a prefix of the one of SIZE leaves
  // (root NEWROOT): RFC 9162 2.1.4.2, as ledger/merkle.py `verify_consistency` (arithmetic, not 32-bit
  // bit operations, so any size a log reaches is right).
  function verifyConsistency(old, size, oldRoot, newRoot, proof) {
    if (old === 0 || size < old || !proof.every(function (h) { return h.length === 32; })) return Promise.resolve(false);
    if (old === size) return Promise.resolve(proof.length === 0 && same(oldRoot, newRoot));
    if (proof.length === 0) return Promise.resolve(false);
    var path = proof.slice();
    if (powerOfTwo(old)) path.unshift(oldRoot);
    var fn = old - 1, sn = size - 1;
    while (odd(fn)) { fn = half(fn); sn = half(sn); }
    var first = path[0], second = path[0], i = 1;
    function step() {
      if (i >= path.length) return Promise.resolve(same(first, oldRoot) && same(second, newRoot) && sn === 0);
      var sibling = path[i++];
      if (sn === 0) return Promise.resolve(false);
      if (odd(fn) || fn === sn) {
        return node(sibling, first).then(function (a) {
          first = a;
          return node(sibling, second);
        }).then(function (b) {
          second = b;
          while (!odd(fn) && fn !== 0) { fn = half(fn); sn = half(sn); }
          fn = half(fn); sn = half(sn);
          return step();
        });
      }
      return node(second, sibling).then(function (b) {
        second = b;
        fn = half(fn); sn = half(sn);
        return step();
      });
    }
    return step();
  }

  function bytes(base64) {
    var text = atob(base64), out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  function remembered(id) {
    try {
      var seen = JSON.parse(localStorage.getItem(MEMORY + id) || "null");
      return seen && typeof seen.size === "number" && typeof seen.root === "string" ? seen : null;
    } catch (problem) {
      return null;
    }
  }

  function remember(id, size, root) {
    try { localStorage.setItem(MEMORY + id, JSON.stringify({ size: size, root: root })); } catch (problem) { /* private mode */ }
  }

  function warn(id, name, why) {
    warned[id] = why;
    if (!banner) return;
    banner.textContent = "";
    var title = document.createElement("strong");
    title.textContent = "Warning: the history of " + (name || "this campaign") + " has changed.";
    banner.appendChild(title);
    var text = document.createElement("p");
    text.textContent = "It no longer extends the history this browser saw before: " + why +
      ". An event recorded earlier was edited, removed or re-ordered, or this server shows another log. " +
      "Run `chronicle verify` on the ledger to name the first changed event.";
    banner.appendChild(text);
    banner.hidden = false;
    document.body.dataset.witness = "rewritten";
  }

  function answer(response) {
    return response.json().catch(function () { return {}; }).then(function (body) {
      return { status: response.status, ok: response.ok, body: body };
    });
  }

  function get(url) {
    return fetch(url, { cache: "no-store", credentials: "omit" }).then(answer);
  }

  // The campaign's checkpoint names the ledger (memory is kept per ledger and campaign: a copy elsewhere
  // is another history); then the proof from what this browser saw there to now.
  function check(id, name) {
    if (warned[id]) return Promise.resolve();
    var campaign = encodeURIComponent(id), memory = null, seen = null;
    function refused(got) {
      if (got.status !== 409) return false;
      warn(id, name, (got.body.error && got.body.error.message) || "the server cannot prove it extends");
      return true;
    }
    return get("/checkpoint?campaign=" + campaign).then(function (got) {
      if (refused(got) || !got.ok) return null;  // not ok: unreachable, or no campaign of this ledger
      memory = id + "." + got.body.ledger;
      seen = remembered(memory);
      if (!seen) {
        remember(memory, got.body.size, got.body.root);
        return null;
      }
      return get("/proof?campaign=" + campaign + "&from=" + seen.size);
    }).then(function (got) {
      if (!got || refused(got) || !got.ok) return;
      var now = got.body;
      return verifyConsistency(seen.size, now.size, bytes(seen.root), bytes(now.root), now.proof.map(bytes))
        .then(function (extends_) {
          if (extends_) remember(memory, now.size, now.root);
          else warn(id, name, "the consistency proof from the " + seen.size + " events it saw to the " + now.size +
            " there are now does not verify");
        });
    }).catch(function () { /* the server is away: the live badge says so */ });
  }

  var running = null, again = false;

  // One round of checks at a time; asked again meanwhile (a burst of events), one more round after it.
  function checkAll() {
    if (running) {
      again = true;
      return running;
    }
    running = round().then(function () {
      running = null;
      if (again) {
        again = false;
        return checkAll();
      }
    });
    return running;
  }

  function round() {
    var found = {};
    document.querySelectorAll("[data-witness]").forEach(function (element) {
      found[element.dataset.witness] = element.dataset.witnessName || "";
    });
    var checks = Object.keys(found).map(function (id) { return check(id, found[id]); });
    return Promise.all(checks).then(function () { document.body.dataset.witnessChecked = String(Date.now()); });
  }

  window.chronicleWitness = { verifyConsistency: verifyConsistency, sha256: sha256, sha256Plain: sha256Plain,
    check: checkAll };
  checkAll();
  window.setInterval(checkAll, EVERY);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) checkAll(); });
  new MutationObserver(checkAll).observe(document.body, { attributes: true, attributeFilter: ["data-last-event"] });
})();
