// The forms of a character's page, for a participant whose key this browser holds: made from the command
// documents' JSON Schemas the server gives for the campaign's system and the participant's role
// (GET /api/me), signed with this browser's key and sent to POST /api/commands. What a write decided is
// shown as its sentences. Every text from the server or a person is set as text, never as markup.
(function () {
  "use strict";
  var panel = document.getElementById("act");
  if (!panel || !window.chronicleKeys) return;
  var keys = window.chronicleKeys;
  var who = document.getElementById("act-who");
  var holder = document.getElementById("act-forms");
  var result = document.getElementById("act-result");
  var campaign = panel.dataset.campaignId;
  var character = panel.dataset.actFor;  // (not data-character: live.js finds the page's character by that)
  var record = null;
  var DICE = /(^|_)roll$|(^|_)dice$/;
  var LONG = /^(text|reason|describe)$/;
  var SHOWN = 6;  // fields a form shows before "More options"

  function say(text, failed) {
    result.textContent = text;
    result.classList.toggle("act-failed", Boolean(failed));
    result.classList.toggle("act-done", !failed);
    if (result.scrollIntoView) result.scrollIntoView({ block: "nearest" });
  }

  function make(tag, attributes, text) {
    var element = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { element.setAttribute(name, attributes[name]); });
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function listed(names) {
    if (names.length <= 2) return names.join(" and ");
    return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  // 32 random bytes of this device, as 64 lower-case hex: the ledger's fair dice mix them with its own
  // committed seed, so neither this page nor whoever holds the ledger chooses the faces (docs/fair-dice.md).
  function deviceSeed() {
    return Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(32)), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // Send DOCUMENT signed with this browser's key (with a device seed of its own); the answer is shown and returned.
  function send(document) {
    if (!document.device_seed) document.device_seed = deviceSeed();
    if (!record) {
      say("This browser holds no key of this campaign: a gm invites you with `chronicle participant invite`.", true);
      return Promise.resolve(null);
    }
    say("Recording…");
    return keys.send(record, campaign, document).then(function (answer) {
      say(keys.told(answer), !answer.ok);
      return answer;
    }, function () {
      say("Could not reach the server: nothing was recorded.", true);
      return null;
    });
  }
  window.chronicleAct = { send: send };

  // One field of a form from its JSON Schema (an optional value is anyOf [it, null]); null: no form field.
  function shape(name, property, required) {
    var alternative = property;
    if (property.anyOf) {
      var others = property.anyOf.filter(function (a) { return a.type !== "null"; });
      if (others.length !== 1) return null;
      alternative = others[0];
    }
    var field = { name: name, required: required, title: property.title || name,
      hint: property.description || alternative.description || "", labels: property["x-labels"] || {} };
    var items = alternative.items || {};
    if (alternative.enum && (alternative.type === "string" || alternative.type === "integer")) field.kind = "choice";
    else if (alternative.type === "array" && items.enum) field.kind = "many";
    else if (alternative.type === "integer") field.kind = "number";
    else if (alternative.type === "boolean") field.kind = "flag";
    else if (alternative.type === "string") field.kind = LONG.test(name) ? "long" : "text";
    else if (alternative.type === "array" && alternative.items && alternative.items.type === "integer") field.kind = "faces";
    else if (alternative.type === "array" && alternative.items && alternative.items.type === "string") field.kind = "lines";
    else return null;
    field.options = alternative.enum || items.enum || [];
    field.integer = alternative.type === "integer";
    field.dice = DICE.test(name);
    return field;
  }

  function fields(action) {
    var properties = action.schema.properties || {};
    var required = action.schema.required || [];
    var found = [];
    var names = Object.keys(properties);
    for (var i = 0; i < names.length; i++) {
      var name = names[i];
      if (name === "command" || name === "device_seed" || (name === action.character && !action.campaign)) continue;
      var field = shape(name, properties[name], required.indexOf(name) >= 0);
      if (field === null) {
        if (required.indexOf(name) >= 0) return null;  // a form could not ask for it: no form
        continue;
      }
      found.push(field);
    }
    return found;
  }

  function input(prefix, field) {
    var id = prefix + field.name;
    var box = make("div", { class: "act-field act-" + field.kind });
    var control;
    if (field.kind === "choice") {
      control = make("select", { id: id, name: field.name });
      var alone = field.required && field.options.length === 1;
      if (!alone) control.appendChild(make("option", { value: "" }, field.required ? "choose…" : "none"));
      field.options.forEach(function (option) { control.appendChild(make("option", { value: String(option) }, worded(field, option))); });
    } else if (field.kind === "many") {
      // one box a value (a sheet's weapons): the first is ticked, so that the common blow is one tap
      control = make("fieldset", { id: id, class: "act-many" });
      control.appendChild(make("legend", {}, field.title));
      field.options.forEach(function (option, at) {
        var tick = make("label", { class: "act-tick" });
        var mark = make("input", { type: "checkbox", name: field.name, value: String(option) });
        if (at === 0) mark.checked = true;
        tick.appendChild(mark);
        tick.appendChild(document.createTextNode(" " + worded(field, option)));
        control.appendChild(tick);
      });
      box.appendChild(control);
      if (field.hint) box.appendChild(make("small", {}, field.hint));
      return box;
    } else if (field.kind === "long" || field.kind === "lines") {
      control = make("textarea", { id: id, name: field.name, rows: "2" });
    } else if (field.kind === "flag") {
      control = make("input", { id: id, name: field.name, type: "checkbox" });
    } else {
      var numeric = field.kind === "number" || field.kind === "faces";
      control = make("input", { id: id, name: field.name, type: field.kind === "number" ? "number" : "text",
        autocomplete: "off" });
      if (numeric) control.setAttribute("inputmode", field.kind === "faces" ? "text" : "numeric");
    }
    if (field.dice) control.setAttribute("placeholder", "empty: the ledger rolls");
    else if (field.kind === "faces") control.setAttribute("placeholder", "e.g. 3, 5");
    else if (field.kind === "lines") control.setAttribute("placeholder", "one a line");
    var label = make("label", { for: id }, field.title);
    if (field.kind === "flag") {
      box.appendChild(control);
      box.appendChild(label);
    } else {
      box.appendChild(label);
      box.appendChild(control);
    }
    if (field.hint) box.appendChild(make("small", {}, field.hint));
    return box;
  }

  function worded(field, option) {
    return field.labels[String(option)] || String(option).replace(/[-_]/g, " ");
  }

  function collect(form, action, asked) {
    var document = { command: action.command };
    if (action.character && !action.campaign) document[action.character] = character;
    asked.forEach(function (field) {
      var control = form.elements[field.name];
      if (field.kind === "flag") {
        if (control.checked) document[field.name] = true;
        return;
      }
      if (field.kind === "many") {
        var ticked = Array.prototype.filter.call(form.querySelectorAll('input[name="' + field.name + '"]'),
          function (box) { return box.checked; }).map(function (box) { return box.value; });
        if (ticked.length) document[field.name] = ticked;
        else if (field.required) throw new Error(field.title + " is needed");
        return;
      }
      var value = control.value.trim();
      if (!value) {
        if (field.required) throw new Error(field.title + " is needed");
        return;
      }
      if (field.kind === "choice" && field.integer) {
        document[field.name] = Number(value);
      } else if (field.kind === "number") {
        if (!/^-?\d+$/.test(value)) throw new Error(field.title + " is a whole number");
        document[field.name] = Number(value);
      } else if (field.kind === "faces") {
        var faces = value.split(/[\s,]+/).filter(Boolean);
        if (!faces.every(function (face) { return /^-?\d+$/.test(face); })) {
          throw new Error(field.title + " are whole numbers, separated by commas");
        }
        document[field.name] = faces.map(Number);
      } else if (field.kind === "lines") {
        document[field.name] = value.split("\n").map(function (line) { return line.trim(); }).filter(Boolean);
      } else {
        document[field.name] = value;
      }
    });
    return document;
  }

  // The command's summary in the table's words: the acting field's capitals (NAME, ATTACKER) are this
  // character, another field's (TARGET) "the target".
  function worded_summary(action) {
    var properties = action.schema.properties || {};
    var acting = (action.character || "name").toUpperCase();
    return action.summary.replace(/\b([A-Z][A-Z_]{2,})\b/g, function (word) {
      if (character && (word === acting || word === "NAME")) return character;
      return properties[word.toLowerCase()] ? "the " + word.toLowerCase().replace(/_/g, " ") : word;
    });
  }

  function form(action) {
    var asked = fields(action);
    if (asked === null) return null;
    var prefix = "act-" + action.command.replace(/[^a-z0-9]+/g, "-") + "-";
    var details = make("details", { class: "action", "data-command": action.command });
    details.appendChild(make("summary", {}, action.title));
    var body = make("form", { class: "act-form", novalidate: "" });
    body.appendChild(make("p", { class: "act-summary" }, worded_summary(action)));
    var more = make("details", { class: "act-more" });
    more.appendChild(make("summary", {}, "More options"));
    var shown = 0;  // in sight: what is needed, the table's dice, and other values while room is left; the rest folded
    asked.forEach(function (field) {
      var inSight = field.required || field.dice || (field.kind !== "flag" && shown < SHOWN);
      if (inSight) shown++;
      (inSight ? body : more).appendChild(input(prefix, field));
    });
    if (more.children.length > 1) body.appendChild(more);
    var button = make("button", { type: "submit", class: "big" }, action.title);
    body.appendChild(button);
    body.addEventListener("submit", function (event) {
      event.preventDefault();
      var document;
      try {
        document = collect(body, action, asked);
      } catch (problem) {
        say("Check the form: " + problem.message + ".", true);
        return;
      }
      button.disabled = true;
      send(document).then(function (answer) {
        button.disabled = false;
        if (answer && answer.ok) {
          body.reset();
          details.open = false;
        }
      });
    });
    details.appendChild(body);
    return details;
  }

  function show(actions, mine) {
    var own = actions.filter(function (a) { return !a.campaign && mine; });
    var table = actions.filter(function (a) { return a.campaign; });
    [[own, "Record for " + character], [table, "For the whole table"]].forEach(function (group) {
      var made = group[0].map(form).filter(Boolean);
      if (!made.length) return;
      var section = make("div", { class: "act-group" });
      section.appendChild(make("h2", {}, group[1]));
      made.forEach(function (element) { section.appendChild(element); });
      holder.appendChild(section);
    });
  }

  if (!keys.usable()) {
    who.textContent = keys.why();
    return;
  }
  function me() {
    var url = "/api/me?campaign=" + encodeURIComponent(campaign) + "&key=" + encodeURIComponent(record.key) +
      (character ? "&character=" + encodeURIComponent(character) : "");
    return fetch(url, { credentials: "omit" }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    });
  }

  // After a write (this page's or another's) the forms are made again: what can apply has changed (a
  // dying save once dying, First Aid once wounded), unless one is open, being filled in.
  function again() {
    var stamp = document.body.dataset.refreshed || "";
    var busy = function () { return holder.querySelector("details[open]") !== null; };
    if (!record || busy()) { panel.dataset.made = stamp; return; }
    me().then(function (found) {
      if (found.ok && found.body.participant && !busy()) {
        holder.textContent = "";
        show(found.body.actions, mine(found.body.participant));
      }
      if (found.ok && found.body.participant) corrections(found.body.participant);
      panel.dataset.made = stamp;  // (the forms as of the page's latest refresh: what a test waits for)
    });
  }

  function mine(participant) {
    var folded = character.toLowerCase();
    return participant.role === "gm" || participant.plays.some(function (n) { return n.toLowerCase() === folded; });
  }

  // A gm's "Correct this" beside each story entry: the correction form with the event's dice in the
  // table's words and their faces as recorded (GET /api/dice); only what was changed is sent.
  function corrections(participant) {
    if (participant.role !== "gm") return;
    Array.prototype.forEach.call(document.querySelectorAll("#live li[id^='event-']"), function (entry) {
      if (entry.querySelector("button.correct")) return;
      var position = entry.id.slice("event-".length);
      var button = make("button", { type: "button", class: "correct", "data-position": position }, "Correct this");
      button.addEventListener("click", function () { correct(entry, position, button); });
      entry.appendChild(button);
    });
  }

  function correct(entry, position, button) {
    var url = "/api/dice?campaign=" + encodeURIComponent(campaign) + "&position=" + encodeURIComponent(position);
    button.disabled = true;
    fetch(url, { credentials: "omit" }).then(function (response) { return response.json(); }).then(function (found) {
      button.disabled = false;
      if (found.error) { say(found.error.message, true); return; }
      var body = make("form", { class: "act-form act-correct", novalidate: "" });
      body.appendChild(make("p", { class: "act-summary" }, "#" + position + ": " + found.text));
      var prefix = "correct-" + position + "-";
      var dice = found.correctable.map(function (roll, at) {
        var field = { name: prefix + at, title: roll.says.charAt(0).toUpperCase() + roll.says.slice(1), kind: "faces",
          labels: {}, hint: "", dice: false };
        var box = input("", field);
        box.querySelector("input").value = roll.faces.join(", ");
        body.appendChild(box);
        return { roll: roll, control: box.querySelector("input") };
      });
      if (!dice.length) body.appendChild(make("p", {}, "This event rolled no dice: a correction can void it."));
      var reason = input("", { name: prefix + "reason", title: "Why", kind: "text", labels: {}, hint: "", dice: false });
      body.appendChild(reason);
      var voided = input("", { name: prefix + "void", title: "Void it: it did not happen", kind: "flag", labels: {},
        hint: "", dice: false });
      body.appendChild(voided);
      var submit = make("button", { type: "submit", class: "big" }, "Correct #" + position);
      body.appendChild(submit);
      body.addEventListener("submit", function (event) {
        event.preventDefault();
        var document = { command: "amend", ref: position, reason: reason.querySelector("input").value.trim() };
        if (!document.reason) { say("Check the form: say why.", true); return; }
        if (voided.querySelector("input").checked) document.void = true;
        var rolls = [];
        for (var i = 0; i < dice.length; i++) {
          var faces = dice[i].control.value.split(/[\s,]+/).filter(Boolean);
          if (!faces.every(function (face) { return /^\d+$/.test(face); })) {
            say("Check the form: " + dice[i].roll.says + " are whole numbers.", true);
            return;
          }
          if (faces.join(",") !== dice[i].roll.faces.join(",")) rolls.push(dice[i].roll.roll + "=" + faces.join(","));
        }
        if (rolls.length) document.roll = rolls;
        if (!rolls.length && !document.void) { say("Nothing to correct: change a die or void the event.", true); return; }
        submit.disabled = true;
        send(document).then(function (answer) {
          submit.disabled = false;
          if (answer && answer.ok) body.remove();
        });
      });
      var open = entry.querySelector("form.act-correct");
      if (open) open.remove();
      entry.appendChild(body);
    }, function () {
      button.disabled = false;
      say("Could not reach the server.", true);
    });
  }

  keys.load(campaign).then(function (found) {
    if (!found) {
      who.textContent = "Read only: this browser holds no key of this campaign. " +
        "To record from here, ask the gm for an invitation.";
      return null;
    }
    record = found;
    return me();
  }).then(function (found) {
    if (!found) return;
    if (!found.ok) {
      who.textContent = "The server cannot say whose key this browser holds: " + ((found.body.error || {}).message || "try again") + ".";
      return;
    }
    var participant = found.body.participant;
    if (!participant) {
      who.textContent = "This browser's key is no participant's of " + found.body.campaign.name +
        " now (removed, or replaced by another device's): ask the gm for a new invitation.";
      return;
    }
    var own = mine(participant);
    var role = participant.role === "gm" ? "a gm" : "playing " + (listed(participant.plays) || "no character");
    who.textContent = "Signed in as " + participant.name + ", " + role + (own || !character ? "." :
      ": only " + character + "'s player or a gm records for " + character + ".");
    panel.dataset.participant = participant.name;
    show(found.body.actions, own);
    corrections(participant);
    panel.dataset.made = document.body.dataset.refreshed || "";
    new MutationObserver(again).observe(document.body, { attributes: true, attributeFilter: ["data-refreshed"] });
  }).catch(function () {
    who.textContent = "Could not read this browser's key or reach the server.";
  });
})();
