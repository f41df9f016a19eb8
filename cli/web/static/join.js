// The join page (/join/TOKEN): make this device's key, sign `participant join` with it, and keep the key
// (in IndexedDB, for this campaign) once the server has recorded it as the invited participant's.
(function () {
  "use strict";
  var section = document.getElementById("join");
  var button = document.getElementById("join-button");
  var result = document.getElementById("join-result");
  if (!section || !button || !window.chronicleKeys) return;
  var keys = window.chronicleKeys;

  function say(text, failed) {
    result.textContent = text;
    result.classList.toggle("act-failed", Boolean(failed));
  }

  if (!keys.usable()) {
    button.disabled = true;
    say(keys.why(), true);
    return;
  }

  button.addEventListener("click", function () {
    var campaign = section.dataset.campaignId;
    var record = null;
    button.disabled = true;
    say("Making this device's key…");
    keys.make().then(function (made) {
      record = made;
      return keys.send(made, campaign, { command: "participant join", invitation: section.dataset.token });
    }).then(function (answer) {
      if (!answer.ok) {
        say(keys.told(answer), true);
        return null;
      }
      record.campaign = campaign;
      record.name = answer.body.name;
      return keys.save(record).then(function () {
        say(keys.told(answer) + " Taking you to the table…");
        document.body.dataset.joined = record.key;
        window.setTimeout(function () { window.location.assign(section.dataset.next || "/"); }, 600);
      }, function () {
        say("Joined, but this browser could not keep the key: ask the gm for a new invitation.", true);
      });
    }).catch(function (problem) {
      button.disabled = false;
      say("Could not join: " + (problem && problem.message ? problem.message : "this browser refused to make a key") + ".", true);
    });
  });
})();
