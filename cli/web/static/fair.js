// Fair dice, checked here (docs/fair-dice.md): each fair roll on the page gets a small mark; the browser
// derives its faces again from the revealed seed and the device's seed (Web Crypto HMAC-SHA256, the
// chronicle-dice-v1 stream) and hashes the seed back to its commitment's head. Opening the mark shows the
// seeds and both sets of faces; a roll whose faces or seed do not check is marked with a warning. Every
// text from the server is set as text, never as markup.
(function () {
  "use strict";
  var subtle = window.crypto && window.crypto.subtle;
  var LABEL = new TextEncoder().encode("chronicle-dice-v1");
  var TWO64 = BigInt(1) << BigInt(64);

  function bytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  // The faces of ROLLS ([{sides, faces}], in order) from the stream of SEED and DEVICE (hex; DEVICE may be null).
  function derive(seed, device, rolls) {
    var prefix = device ? bytes(device) : new Uint8Array(0);
    var values = [], block = 0;
    return subtle.importKey("raw", bytes(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]).then(function (key) {
      function next() {
        if (values.length) return Promise.resolve(values.shift());
        var message = new Uint8Array(LABEL.length + prefix.length + 8);
        message.set(LABEL, 0);
        message.set(prefix, LABEL.length);
        new DataView(message.buffer).setBigUint64(LABEL.length + prefix.length, BigInt(block++), false);
        return subtle.sign("HMAC", key, message).then(function (mac) {
          var view = new DataView(mac);
          for (var i = 0; i < 4; i++) values.push(view.getBigUint64(8 * i, false));
          return values.shift();
        });
      }
      function face(sides) {
        var limit = sides * (TWO64 / sides);
        return next().then(function (value) { return value < limit ? BigInt(1) + value % sides : face(sides); });
      }
      var faces = [];
      return rolls.reduce(function (done, roll) {
        return done.then(function () {
          var these = [];
          faces.push(these);
          return roll.faces.reduce(function (inner) {
            return inner.then(function () { return face(BigInt(roll.sides)).then(function (f) { these.push(String(f)); }); });
          }, Promise.resolve());
        });
      }, Promise.resolve()).then(function () { return faces; });
    });
  }

  // Whether SEED hashed INDEX times gives HEAD (seed i of a chain hashes back to s_0, its commitment's head).
  function chained(seed, index, head) {
    var step = function (value, left) {
      if (left === 0) return Promise.resolve(hex(value) === head);
      return subtle.digest("SHA-256", value).then(function (down) { return step(down, left - 1); });
    };
    return step(bytes(seed), index);
  }

  function make(tag, attributes, text) {
    var element = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { element.setAttribute(name, attributes[name]); });
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function line(holder, label, value) {
    var row = make("p", {});
    row.appendChild(make("span", { class: "fair-label" }, label + " "));
    row.appendChild(make("code", {}, value));
    holder.appendChild(row);
  }

  // ROW: a story's item (its text in .text) or the log's cell of what happened.
  function mark(row, found) {
    var target = row.querySelector(".text") || row;
    var details = make("details", { class: "fair", "data-fair-index": String(found.index) });
    var summary = make("summary", { class: "fair-mark", title: "The ledger's fair dice: open to check them here" }, "fair dice");
    details.appendChild(summary);
    var body = make("div", { class: "fair-body" });
    details.appendChild(body);
    target.appendChild(document.createTextNode(" "));
    target.appendChild(details);
    var recorded = found.rolls.map(function (r) { return r.faces.map(String); });
    var commitment = found.commitment;
    line(body, "Seed " + found.index + (commitment ? " of the chain committed at #" + commitment.position : "") + ":", found.seed);
    line(body, "Device seed:", found.device_seed || "none (not asked from a device)");
    if (commitment) line(body, "Chain head:", commitment.head);
    line(body, "Faces recorded:", recorded.map(function (f) { return f.join(", "); }).join("; "));
    if (!subtle) {
      line(body, "Faces derived here:", "this browser cannot derive them (open the page by https or on the server's machine)");
      return Promise.resolve();
    }
    return Promise.all([
      derive(found.seed, found.device_seed, found.rolls),
      commitment ? chained(found.seed, found.index, commitment.head) : Promise.resolve(found.copied ? null : false),
    ]).then(function (checked) {
      var derived = checked[0], held = checked[1];
      line(body, "Faces derived here:", derived.map(function (f) { return f.join(", "); }).join("; "));
      if (held === null) line(body, "Chain:", "a copy, in a replay's fork, of a roll of another campaign, whose log holds its chain");
      var same = JSON.stringify(derived) === JSON.stringify(recorded);
      var problems = [];
      if (!same) problems.push("the faces recorded are not those this seed and device seed give");
      if (held === false) problems.push("the seed does not hash back to its commitment's head");
      if (problems.length) {
        details.classList.add("fair-warn");
        summary.textContent = "fair dice: they do not check";
        body.appendChild(make("p", { class: "fair-warning", role: "alert" },
          "Warning: " + problems.join("; ") + ". The record was changed after the roll."));
      } else {
        details.classList.add("fair-ok");
        body.appendChild(make("p", { class: "fair-checked" },
          held ? "Checked in this browser: the faces are the seed's, and the seed hashes back to the head in " +
            found.index + " steps." : "Checked in this browser: the faces are the seed's."));
      }
    });
  }

  function decorate() {
    var owner = document.querySelector("#live [data-witness]");
    var rows = Array.prototype.slice.call(document.querySelectorAll("#live [id^='event-']"));
    if (!owner || !rows.length) return;
    var byPosition = {};
    rows.forEach(function (row) {
      if (!row.querySelector(".fair")) byPosition[row.id.slice(6)] = row;
    });
    var positions = Object.keys(byPosition).filter(function (p) { return /^\d+$/.test(p); }).slice(0, 500);
    if (!positions.length) return;
    var url = "/api/fair?campaign=" + encodeURIComponent(owner.dataset.witness) + "&positions=" + positions.join(",");
    fetch(url, { credentials: "omit" }).then(function (response) { return response.ok ? response.json() : { rolls: {} }; })
      .then(function (answer) {
        var checks = Object.keys(answer.rolls).map(function (position) {
          var row = byPosition[position];
          return row && !row.querySelector(".fair") ? mark(row, answer.rolls[position]) : null;
        });
        return Promise.all(checks);
      })
      .then(function () { document.body.dataset.fairChecked = String(Date.now()); })
      .catch(function () { /* the marks wait for the next refresh */ });
  }

  window.chronicleFair = { derive: derive, chained: chained };
  decorate();
  new MutationObserver(decorate).observe(document.body, { attributes: true, attributeFilter: ["data-refreshed"] });
})();
