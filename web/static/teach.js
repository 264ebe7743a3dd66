/* "Teach this deck": the tablet's screen for teaching the table's camera a deck.
 *
 * The server does the teaching on its own camera frames (/api/teach); this screen only shows
 * the card asked for and what the camera makes of it, polled twice a second while open, and
 * sends the buttons (Start, Skip, Redo, Finish) with the table's PIN.
 */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const page = () => window.tablePage;
  const POLL_MS = 500;
  const PHASES = {
    waiting: "Waiting for the card…",
    seen: "Seen — keep it still",
    many: "More than one card: show this one alone",
    taken: "Taken! Take it away.",
    clear: "Take the card away first",
    known: "Already known",
    finished: "Finished",
  };

  let timer = null;
  let busy = false;
  let shownCard = null;

  function open() {
    if (page()) page().closeMenu();
    const dialog = $("teach");
    if (!dialog.open) dialog.showModal();
    $("teach-error").hidden = true;
    poll();
  }

  function close() {
    if (timer) clearTimeout(timer);
    timer = null;
    if ($("teach").open) $("teach").close();
  }

  async function poll() {
    if (timer) clearTimeout(timer);
    timer = null;
    try {
      const res = await fetch("/api/teach", { cache: "no-store" });
      render(await res.json());
    } catch (err) {
      $("teach-camera").textContent = "Could not reach the table.";
    }
    if ($("teach").open) timer = setTimeout(poll, POLL_MS);
  }

  function render(s) {
    const dialog = $("teach");
    dialog.dataset.phase = s.phase || "";
    dialog.dataset.active = s.active ? "yes" : "no";
    const cam = $("teach-camera");
    if (!s.camera) {
      cam.textContent = s.message;
      cam.className = "teach-camera off";
      $("teach-setup").hidden = true;
      $("teach-live").hidden = true;
      return;
    }
    cam.className = "teach-camera";
    cam.textContent = s.camera_state === "running" ? `Camera: ${s.camera_name}`
      : s.camera_state === "ended" ? `The camera stopped: ${s.camera_reason || "it ended"}`
      : "The camera is starting…";
    $("teach-setup").hidden = !!s.active;
    $("teach-live").hidden = !s.active;
    if (!s.active) {
      if (s.message) $("teach-error").hidden = true;
      return;
    }
    if (s.card !== shownCard) {
      shownCard = s.card;
      $("teach-card").replaceChildren(s.card && page() ? page().cardFace(s.card) : "");
    }
    $("teach-prompt").textContent = s.card
      ? `Show the ${s.card_name}, alone, under the camera` : "";
    const phase = $("teach-phase");
    phase.dataset.phase = s.phase;
    phase.textContent = PHASES[s.phase] || s.phase;
    const steady = $("teach-steady");
    steady.max = s.steady_needed || 1;
    steady.value = s.phase === "taken" ? steady.max : (s.steady || 0);
    $("teach-progress").textContent = `${s.done}/${s.total} cards taught` +
      (s.skipped && s.skipped.length ? ` · skipped ${s.skipped.length}` : "");
    $("teach-note").textContent = s.message || "";
  }

  async function send(path, body) {
    if (busy || !page()) return;
    const pin = await page().ensurePin();
    if (pin === null) return;
    busy = true;
    try {
      const res = await fetch(`/api/teach/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Table-PIN": pin },
        body: JSON.stringify(body || {}),
      });
      const data = await res.json().catch(() => ({}));
      if (res.ok) {
        $("teach-error").hidden = true;
        render(data);
      } else {
        if (res.status === 403) page().forgetPin();
        $("teach-error").textContent = data.error || "The table refused.";
        $("teach-error").hidden = false;
      }
    } catch (err) {
      $("teach-error").textContent = "Could not reach the table.";
      $("teach-error").hidden = false;
    } finally {
      busy = false;
    }
  }

  $("teach-open").addEventListener("click", open);
  $("teach-close").addEventListener("click", close);
  $("teach").addEventListener("close", close);
  $("teach-start").addEventListener("click", () => send("start", {
    name: $("teach-name").value.trim(),
    cards: $("teach-cards").value,
    add: $("teach-add").checked,
  }));
  $("teach-skip").addEventListener("click", () => send("skip"));
  $("teach-redo").addEventListener("click", () => send("redo"));
  $("teach-finish").addEventListener("click", () => send("finish"));
})();
