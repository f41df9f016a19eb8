// This browser's keys, one per campaign: Ed25519 pairs made here by WebCrypto (the private key not
// extractable: it never leaves this browser), kept in IndexedDB; and a signed write to the server.
// What is signed is the canonical JSON (RFC 8785) of {"campaign": ID, "document": ..., "nonce": ...}.
(function () {
  "use strict";
  var DB = "chronicle", STORE = "keys";

  function usable() {
    return Boolean(window.isSecureContext && window.crypto && crypto.subtle && window.indexedDB);
  }

  function why() {
    if (!window.isSecureContext) {
      return "This page was opened over plain http from another machine, where browsers allow no keys. " +
        "Open it by https, or on the machine running the server (http://127.0.0.1).";
    }
    return "This browser cannot keep a signing key (it lacks WebCrypto or IndexedDB).";
  }

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore(STORE, { keyPath: "campaign" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function stored(mode, act) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var done = db.transaction(STORE, mode);
        var request = act(done.objectStore(STORE));
        done.oncomplete = function () { db.close(); resolve(request.result); };
        done.onerror = done.onabort = function () { db.close(); reject(done.error); };
      });
    });
  }

  function load(campaign) { return stored("readonly", function (s) { return s.get(campaign); }); }
  function save(record) { return stored("readwrite", function (s) { return s.put(record); }); }
  function forget(campaign) { return stored("readwrite", function (s) { return s.delete(campaign); }); }

  function base64(bytes) {
    var text = "";
    new Uint8Array(bytes).forEach(function (b) { text += String.fromCharCode(b); });
    return btoa(text);
  }

  // A new pair; its public key as the ledger writes keys, ed25519:BASE64 of its 32 bytes.
  function make() {
    return crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]).then(function (pair) {
      return crypto.subtle.exportKey("raw", pair.publicKey).then(function (raw) {
        return { privateKey: pair.privateKey, publicKey: pair.publicKey, key: "ed25519:" + base64(raw) };
      });
    });
  }

  // RFC 8785 for what documents hold (objects, arrays, strings, whole numbers, booleans, null): keys
  // sorted by UTF-16 code units, JSON.stringify's own string escapes and number form, no whitespace.
  function canonical(value) {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    return "{" + Object.keys(value).filter(function (k) { return value[k] !== undefined; }).sort()
      .map(function (k) { return JSON.stringify(k) + ":" + canonical(value[k]); }).join(",") + "}";
  }

  function nonce() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_");
  }

  // The request for POST /api/commands: DOCUMENT signed with RECORD's key for CAMPAIGN.
  function sign(record, campaign, document) {
    var once = nonce();
    var message = new TextEncoder().encode(canonical({ campaign: campaign, document: document, nonce: once }));
    return crypto.subtle.sign({ name: "Ed25519" }, record.privateKey, message).then(function (signature) {
      return { campaign: campaign, document: document, key: record.key, nonce: once, signature: base64(signature) };
    });
  }

  // Sign and send; resolves {ok, status, body} (body: the command's JSON, or {"error": {code, message}}).
  function send(record, campaign, document) {
    return sign(record, campaign, document).then(function (request) {
      return fetch("/api/commands", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request),
        credentials: "omit",
      });
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { ok: response.ok, status: response.status, body: body };
      });
    });
  }

  // What a write's answer says, for people: its sentences (without the event's id), or why not.
  var REFUSED = { 400: "Check the form: ", 401: "Not accepted: ", 403: "Not yours to record: ",
    409: "Refused by the rules: ", 413: "Too much at once: ", 429: "Slow down: " };

  function told(answer) {
    if (answer.ok) {
      return String(answer.body.sentences || "Recorded.").split("\n").map(function (line) {
        return line.replace(/\s*\[event [^\]]*\]\s*$/, "");
      }).join("\n");
    }
    var error = (answer.body && answer.body.error) || {};
    var message = String(error.message || "the server did not say why").replace(/\.$/, "");
    return (REFUSED[answer.status] || "Not recorded: ") + message + ".";
  }

  window.chronicleKeys = {
    usable: usable, why: why, load: load, save: save, forget: forget, make: make,
    canonical: canonical, sign: sign, send: send, told: told,
  };
})();
