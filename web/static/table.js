/* The tablet page of the table companion: shows the live game and sends overrides.
 *
 * The server is the only authority: this page never changes the game by itself. It renders
 * every "state" event of /api/stream, reads "say" events aloud, and sends changes with the
 * state_id it was looking at, so a change made against an old picture is refused (409) and the
 * page looks again. Plain JavaScript, no libraries: a tablet at a games night has no internet.
 */
"use strict";

(function () {
  const SUITS = [
    { l: "C", sym: "\u2663", sinbad: "Muscle", jaffar: "Magic", red: false },
    { l: "D", sym: "\u2666", sinbad: "Dumb Luck", jaffar: "Supplication", red: true },
    { l: "H", sym: "\u2665", sinbad: "Friends", jaffar: "Mind Control", red: true },
    { l: "S", sym: "\u2660", sinbad: "Antics", jaffar: "Histrionics", red: false },
  ];
  const SUIT = Object.fromEntries(SUITS.map((s) => [s.l, s]));
  const RANKS = "A23456789TJQK".split("");
  const RESOURCE_SUIT = {
    muscle: "C", friends: "H", luck: "D", dumb_luck: "D", antics: "S",
    clubs: "C", hearts: "H", diamonds: "D", spades: "S",
    magic: "C", mind_control: "H", supplication: "D", histrionics: "S",
  };
  const BANK_SUITS = [["clubs", "C"], ["diamonds", "D"], ["hearts", "H"], ["spades", "S"]];
  const STORE = { pin: "table.pin", speech: "table.speech" };
  const WATCHDOG_MS = 40000;   // three missed heartbeats (15 s) mean the stream is dead

  const $ = (id) => document.getElementById(id);

  let state = null;            // the last snapshot from the server
  let ui = freshUi();          // what the player is in the middle of choosing
  let busy = false;            // a change is on its way: ignore more taps
  let online = false;
  let speechUnlocked = false;
  let endDismissedFor = null;
  const liveQuestions = new Map();

  function freshUi() {
    return { suit: null, picks: [], budge: null, playMode: "one", target: null, tray: [],
             trade: null, fixing: null };
  }

  // ---------------------------------------------------------------------------------------
  // Small helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function rankText(r) { return r === "T" ? "10" : r; }

  function cardFace(code, extra) {
    const rank = code.slice(0, -1);
    const suit = SUIT[code.slice(-1)];
    return el("span", { class: "card" + (suit.red ? " red" : "") + (extra ? " " + extra : ""),
                        dataset: { card: code }, "aria-label": cardName(code) },
              el("span", { class: "rank", text: rankText(rank) }),
              el("span", { class: "suit", text: suit.sym }));
  }

  function cardName(code) {
    const names = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
    const words = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
    const r = code.slice(0, -1);
    return `${names[r] || r} of ${words[code.slice(-1)]}`;
  }

  function suitOfNeed(need) {
    return RESOURCE_SUIT[String(need || "").toLowerCase().replace(/[ -]/g, "_")] || null;
  }

  function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

  function view() { return (state && state.view) || {}; }

  function phase() { return view().phase || (state && state.phase) || "jaffar"; }

  // ---------------------------------------------------------------------------------------
  // Rendering

  function render() {
    if (!state) return;
    const v = view();
    document.body.classList.remove("loading");
    document.body.dataset.stateId = String(state.state_id);
    document.body.dataset.phase = phase();
    document.body.classList.toggle("busy", busy);
    renderMeter(state.sleep);
    renderScoreboard(state.scoreboard);
    renderStory(v);
    renderPaths(v);
    renderSide(v);
    renderQuestions(v);
    renderPanel(v);
    renderNarration(v);
    renderEnd(v);
    $("undo").disabled = busy || v.can_undo === false;
    $("redo").disabled = busy || !v.can_redo;
  }

  let shownSleep = null;
  function renderMeter(sleep) {
    const list = $("notches");
    if (!list.children.length) {
      for (let n = 10; n >= 1; n--) {
        list.append(el("li", { class: "notch", dataset: { n: String(n) } },
                       el("span", { text: String(n) })));
      }
    }
    for (const li of list.children) {
      const n = Number(li.dataset.n);
      li.classList.toggle("lit", n <= sleep);
      li.classList.toggle("marker", n === sleep);
    }
    $("sleep-value").textContent = String(sleep);
    const meter = $("meter");
    meter.dataset.sleep = String(sleep);
    meter.classList.toggle("asleep", sleep === 0);
    if (shownSleep !== null && shownSleep !== sleep) {
      const delta = sleep - shownSleep;
      meter.classList.remove("up", "down");
      void meter.offsetWidth;  // restart the animation even when it moves the same way twice
      meter.classList.add(delta > 0 ? "up" : "down");
      const bubble = el("div", { class: "meter-delta " + (delta > 0 ? "up" : "down"),
                                 text: (delta > 0 ? "+" : "\u2212") + Math.abs(delta) });
      meter.append(bubble);
      setTimeout(() => bubble.remove(), 1800);
    }
    shownSleep = sleep;
  }

  let shownBoard = null;
  function renderScoreboard(board) {
    const box = $("scoreboard");
    box.dataset.state = board;
    if (shownBoard !== null && shownBoard !== board) {
      box.classList.remove("flip");
      void box.offsetWidth;
      box.classList.add("flip");
    }
    shownBoard = board;
  }

  function renderStory(v) {
    const scenario = v.scenario || {};
    $("scenario-title").textContent = scenario.title || state.scenario || "";
    const challenge = v.challenge;
    if (challenge) {
      $("challenge-title").textContent = challenge.title;
      $("challenge-text").textContent = challenge.text || "";
    } else if (state.result) {
      $("challenge-title").textContent = "The story is over";
      $("challenge-text").textContent = "";
    } else if (v.next_challenge) {
      const next = v.next_challenge;
      $("challenge-title").textContent = "Next: " + (next.title || next.id || next);
      $("challenge-text").textContent = v.budge_due
        ? "It begins now: Sinbad plays a Budge card."
        : "It begins when Sinbad plays a Budge card.";
    } else {
      $("challenge-title").textContent = scenario.title || "Sinbad vs. Jaffar";
      $("challenge-text").textContent = "";
    }
  }

  function canPlayNow(v) {
    if (phase() !== "sinbad" || busy) return false;
    const acts = v.sinbad_actions || [];
    if (ui.playMode === "draw_play") return acts.includes("draw_play");
    return acts.includes("play");
  }

  function pathNext(path) {
    // The next resource a path needs, counting cards already waiting in a two-card play.
    const pending = ui.tray.filter((p) => p.path === path.id).length;
    const need = path.need || [];
    const at = (path.cards || []).length + pending;
    return at < need.length ? need[at] : null;
  }

  function renderPaths(v) {
    const box = $("paths");
    box.replaceChildren();
    const paths = v.paths || [];
    // Between challenges there is nothing to show: the story line says what comes next.
    box.hidden = !paths.length;
    if (!paths.length) return;
    const tappable = canPlayNow(v) && (!v.budge_due || ui.budge);
    for (const path of paths) {
      const need = path.need || [];
      const cards = path.cards || [];
      const next = pathNext(path);
      const suit = SUIT[suitOfNeed(need[0])] || SUIT.C;
      const open = tappable && next !== null && !path.done;
      const steps = need.map((res, i) => {
        const s = SUIT[suitOfNeed(res)] || suit;
        const code = cards[i];
        const pending = !code ? ui.tray.find((p, k) => p.path === path.id &&
          cards.length + ui.tray.slice(0, k).filter((q) => q.path === path.id).length === i)
          : null;
        let inner;
        if (code) inner = cardFace(code);
        else if (pending) inner = cardFace(pending.card, "pending");
        else inner = el("span", { class: "slot-need" + (s.red ? " red" : "") },
                        el("span", { class: "suit", text: s.sym }),
                        el("span", { class: "word", text: s.sinbad }));
        const isNext = !code && !pending && i === cards.length +
          ui.tray.filter((p) => p.path === path.id).length;
        return el("li", { class: "step" + (code ? " filled" : "") + (isNext ? " next" : "") },
                  inner);
      });
      const flavor = (path.flavor || []).filter(Boolean);
      const title = pathTitle(path);
      const node = el(open ? "button" : "div", {
        class: "path" + (path.done ? " done" : "") + (open ? " open" : ""),
        type: open ? "button" : undefined,
        dataset: { path: path.id },
        "aria-label": open ? `Play a card on the ${title}` : undefined,
        onclick: open ? () => choosePath(path.id) : undefined,
      },
      el("header", { class: "path-head" },
         el("span", { class: "path-suit" + (suit.red ? " red" : ""), text: suit.sym }),
         el("span", { class: "path-name", text: title }),
         el("span", { class: "path-count", text: `${cards.length}/${need.length}` })),
      el("ol", { class: "steps" }, steps),
      flavor.length ? el("ol", { class: "flavor" }, flavor.map((line) => el("li", { text: line })))
                    : null,
      null);
      box.append(node);
    }
  }

  function renderSide(v) {
    const last = v.jaffar_last || state.jaffar_last || [];
    const row = $("jaffar-last");
    row.replaceChildren(...(last.length ? last.map((c) => cardFace(c))
                                        : [el("span", { class: "muted", text: "—" })]));
    const bank = state.bank || {};
    $("bank").replaceChildren(...BANK_SUITS.map(([word, l]) =>
      el("span", { class: "bank-suit" + (SUIT[l].red ? " red" : ""), dataset: { suit: word },
                   "aria-label": `${bank[word] || 0} ${word}` },
         el("span", { class: "suit", text: SUIT[l].sym }), el("b", { text: String(bank[word] || 0) }))),
      bank.unknown ? el("span", { class: "bank-suit", "aria-label": `${bank.unknown} unknown` },
                        "?", el("b", { text: String(bank.unknown) })) : "");
    const stack = v.jaffar_stack_count ?? (state.jaffar_stack || []).length;
    const rows = [
      ["Sinbad's hand", state.hand, "hand"],
      ["Draw pile", state.draw_pile, "draw-pile"],
      ["Jaffar's deck", v.jaffar_deck ?? state.jaffar_deck, "jaffar-deck"],
      ["Jaffar's stack", stack, "jaffar-stack"],
      ["Turn", state.turn, "turn"],
      ["Challenge turn", state.challenge_turn ?? "\u2014", "challenge-turn"],
    ];
    $("counts").replaceChildren(...rows.flatMap(([label, value, key]) => [
      el("dt", { text: label }),
      el("dd", { dataset: { count: key } }, String(value)),
    ]));
  }

  function questionsNow(v) {
    const list = (v.questions || []).slice();
    for (const q of liveQuestions.values()) {
      if (!list.some((x) => x.id === q.id)) list.push(q);
    }
    return list;
  }

  function renderQuestions(v) {
    const box = $("question-box");
    const qs = questionsNow(v);
    box.hidden = !qs.length;
    box.replaceChildren(...qs.map((q) => {
      // A question about a card the camera pictured may be answered with the real card:
      // the game goes on with it and the deck learns the picture.
      const fixing = q.capture && (q.kind === "card" || ui.fixing === q.id);
      const choices = (q.choices || []).map((choice) =>
        el("button", { class: "big", type: "button", disabled: busy,
                       onclick: () => answerQuestion(q.id, choice) }, choice));
      if (q.capture && !fixing) {
        choices.push(el("button", { class: "big other-card", type: "button", disabled: busy,
                                    dataset: { fix: q.capture },
                                    onclick: () => { ui.fixing = q.id; ui.suit = null; render(); } },
                        "It's another card…"));
      }
      return el("div", { class: "question" + (q.capture ? " has-picture" : ""),
                         dataset: { question: q.id, capture: q.capture || undefined } },
        q.capture ? el("img", { class: "question-pic", alt: "The card the camera saw",
                                src: `/api/captures/${encodeURIComponent(q.capture)}/image` })
                  : null,
        el("div", { class: "question-body" },
          el("p", { class: "question-text", text: q.text }),
          fixing ? picker({ suits: SUITS, names: "sinbad", used: new Set(),
                            label: "Which card is it?",
                            onPick: (code) => fixCard(q.capture, code) }) : null,
          el("div", { class: "choices" }, choices)));
    }));
  }

  // The control panel: what the player whose phase it is may do now.
  function renderPanel(v) {
    const panel = $("panel");
    panel.replaceChildren();
    const p = phase();
    if (p === "over" || state.result) {
      $("phase-title").textContent = "The game is over";
      $("phase-hint").textContent = resultWords(state.result).title;
      panel.append(el("div", { class: "actions" },
        el("button", { class: "big", type: "button", onclick: showEnd }, "Show the ending"),
        el("button", { class: "big primary", type: "button", onclick: openMenu }, "New game")));
      return;
    }
    if (p === "jaffar") renderJaffarPanel(v, panel);
    else renderSinbadPanel(v, panel);
  }

  function jaffarRange(v) {
    const r = v.jaffar_cards;
    if (Array.isArray(r) && r.length === 2) return r;
    return state.scoreboard === "winning" ? [1, 2] : [1, 1];
  }

  function renderJaffarPanel(v, panel) {
    const [low, high] = jaffarRange(v);
    $("phase-title").textContent = "Jaffar's turn";
    document.body.dataset.turn = "jaffar";
    if (high === 0) {
      $("phase-hint").textContent = "Jaffar skips this phase.";
      panel.append(el("div", { class: "actions" },
        el("button", { class: "big primary", type: "button", id: "jaffar-skip",
                       onclick: () => sendLine({ jaffar: [] }) }, "Continue")));
      return;
    }
    $("phase-hint").textContent = low === high
      ? `He plays ${plural(low, "card")}: tap its suit, then the card.`
      : state.scoreboard === "winning"
        ? `Jaffar is winning: ${low} or ${high} cards, one after the other.`
        // S6: the third turn of a challenge turns the scoreboard before his phase.
        : `The challenge drags on, so Jaffar starts winning: ${low} or ${high} cards.`;
    const actions = el("div", { class: "actions" });
    if (!ui.picks.length) {
      actions.append(el("button", { class: "big primary", type: "button", id: "jaffar-auto",
                                    onclick: autoJaffar }, "Jaffar plays for me"));
    } else {
      actions.append(el("span", { class: "picked" }, "Chosen: ",
                        ui.picks.map((c) => cardFace(c, "small"))));
      if (ui.picks.length >= low) {
        actions.append(el("button", { class: "big primary", type: "button", id: "jaffar-done",
          onclick: () => sendLine({ jaffar: ui.picks.slice() }) },
          `That's all: ${plural(ui.picks.length, "card")}`));
      }
      actions.append(el("button", { class: "big", type: "button",
                                    onclick: () => { ui.picks = []; render(); } }, "Start over"));
    }
    panel.append(actions);
    const used = new Set([...(state.jaffar_stack || []), ...ui.picks]);
    panel.append(picker({
      suits: SUITS, names: "jaffar", used,
      onPick: (code) => {
        ui.picks.push(code);
        ui.suit = null;
        if (ui.picks.length >= high) sendLine({ jaffar: ui.picks.slice() });
        else render();
      },
    }));
  }

  // Two taps: a suit, then a rank. With one suit allowed the suit row is skipped.
  function picker({ suits, names, used, onPick, label, extra }) {
    const box = el("div", { class: "picker" });
    if (label || extra) {
      box.append(el("div", { class: "picker-head" },
                    el("p", { class: "picker-label", text: label || "" }), extra || null));
    }
    const chosen = suits.length === 1 ? suits[0] : SUIT[ui.suit] && suits.includes(SUIT[ui.suit])
      ? SUIT[ui.suit] : null;
    if (suits.length > 1) {
      box.append(el("div", { class: "suit-row" }, suits.map((s) =>
        el("button", {
          type: "button", class: "suit-btn" + (s.red ? " red" : "") +
            (chosen === s ? " chosen" : ""),
          dataset: { suit: s.l }, "aria-pressed": chosen === s ? "true" : "false",
          disabled: busy,
          onclick: () => { ui.suit = s.l; render(); },
        }, el("span", { class: "suit", text: s.sym }),
           el("span", { class: "word", text: names === "jaffar" ? s.jaffar : s.sinbad })))));
    }
    const ranks = el("div", { class: "rank-row" + (chosen ? "" : " waiting") });
    for (const r of RANKS) {
      const code = chosen ? r + chosen.l : null;
      ranks.append(el("button", {
        type: "button",
        class: "rank-btn" + (chosen && chosen.red ? " red" : ""),
        dataset: code ? { card: code } : {},
        disabled: busy || !chosen || used.has(code),
        "aria-label": code ? cardName(code) : rankText(r),
        onclick: code ? () => onPick(code) : undefined,
      }, el("span", { class: "rank", text: rankText(r) }),
         chosen ? el("span", { class: "suit", text: chosen.sym }) : null));
    }
    box.append(ranks);
    return box;
  }

  function sinbadBase() {
    const body = {};
    if (view().budge_due && ui.budge) body.budge = ui.budge;
    return body;
  }

  function renderSinbadPanel(v, panel) {
    const acts = v.sinbad_actions || [];
    const winning = state.scoreboard === "winning";
    document.body.dataset.turn = "sinbad";
    $("phase-title").textContent = "Sinbad's turn";
    const budges = v.budge || [];
    if (v.budge_due && !ui.budge && budges.length === 1) ui.budge = budges[0].id;
    const needBudge = v.budge_due && !ui.budge;

    if (v.budge_due) {
      panel.append(el("div", { class: "budge-row" },
        el("p", { class: "picker-label", text: budges.length > 1
          ? "A challenge begins: which Budge card does Sinbad play?"
          : "A challenge begins with this Budge card:" }),
        el("div", { class: "budges" }, budges.map((b) => el("button", {
          type: "button", class: "budge" + (ui.budge === b.id ? " chosen" : ""),
          dataset: { budge: b.id }, "aria-pressed": ui.budge === b.id ? "true" : "false",
          disabled: busy,
          onclick: () => { ui.budge = b.id; render(); },
        }, el("strong", { text: b.title || b.id }),
           el("span", { class: "budge-text", text: b.text || "" }),
           (b.effects || []).length
             ? el("span", { class: "budge-effects", text: b.effects.join(" · ") }) : null)))));
    }

    if (acts.length === 1 && acts[0] === "pass") {
      $("phase-hint").textContent = "Sinbad loses this turn (the girl gets sleepier).";
      panel.append(el("div", { class: "actions" },
        el("button", { class: "big primary", type: "button", id: "sinbad-pass",
                       disabled: busy || needBudge,
                       onclick: () => sendSinbad({ action: "pass" }) }, "Sinbad loses this turn")));
      return;
    }

    const words = [];
    if (acts.includes("draw")) words.push(`draw ${winning ? 1 : 2}`);
    if (acts.includes("play")) words.push(`play ${winning ? "1" : "1 or 2"}`);
    if (acts.includes("trade")) words.push("trade 1");
    if (acts.includes("draw_play")) words.push("draw 1 + play 1");
    const last = words.length > 1 ? ` or ${words.pop()}` : "";
    $("phase-hint").textContent = needBudge ? "First choose the Budge card."
      : `He may ${words.join(", ")}${last}.`;

    if (ui.target) { panel.append(targetPicker(v)); return; }
    if (ui.trade) { panel.append(tradePicker(v)); return; }
    // A challenge about to begin shows its paths already; a card may also go by suit alone.
    const opening = v.budge_due && !v.challenge;

    if (ui.tray.length) {
      panel.append(el("div", { class: "actions tray" },
        el("span", { class: "picked" }, "First card: ", ui.tray.map((p) => cardFace(p.card))),
        el("span", { class: "hint", text: "Now the second: tap a path, or Antics." }),
        el("button", { class: "big", type: "button", id: "play-one",
                       onclick: () => sendSinbad({ action: "play", cards: ui.tray.slice() }) },
           "Only this one"),
        el("button", { class: "big", type: "button",
                       onclick: () => { ui.tray = []; render(); } }, "Cancel")));
    }

    const modes = [];
    if (acts.includes("play")) modes.push(["one", "Play 1 card"]);
    if (acts.includes("play") && !winning) modes.push(["two", "Play 2 cards"]);
    if (acts.includes("draw_play")) modes.push(["draw_play", "Draw 1, then play 1"]);
    if (modes.length > 1 && !ui.tray.length) {
      panel.append(el("div", { class: "modes", role: "radiogroup", "aria-label": "How many cards" },
        modes.map(([mode, label]) => el("button", {
          type: "button", class: "mode" + (ui.playMode === mode ? " chosen" : ""),
          role: "radio", "aria-checked": ui.playMode === mode ? "true" : "false",
          dataset: { mode }, disabled: busy,
          onclick: () => { ui.playMode = mode; render(); },
        }, label))));
    }

    const row = el("div", { class: "actions" });
    if ((acts.includes("play") || acts.includes("draw_play")) && !opening) {
      row.append(el("button", { class: "big antics", type: "button", id: "sinbad-antics",
                                disabled: busy || needBudge,
                                onclick: () => { ui.target = "antics"; render(); } },
                    el("span", { class: "suit", text: "\u2660" }), " Antics"));
    }
    if (!ui.tray.length) {
      if (acts.includes("draw")) {
        const n = winning ? 1 : 2;
        row.append(el("button", { class: "big", type: "button", id: "sinbad-draw",
                                  disabled: busy || needBudge,
                                  onclick: () => sendSinbad({ action: "draw", count: n }) },
                      `Draw ${plural(n, "card")}`));
      }
      if (acts.includes("trade")) {
        row.append(el("button", { class: "big", type: "button", id: "sinbad-trade",
                                  disabled: busy || needBudge,
                                  onclick: () => { ui.trade = { give: null }; ui.suit = null;
                                                   render(); } }, "Trade 1"));
      }
    }
    panel.append(row);
    if (opening && !needBudge && canPlayNow(v)) {
      // The new challenge's paths appear only once its line is applied: the card goes
      // without a path and the rules put it on the one path that takes it.
      const used = new Set(ui.tray.map((p) => p.card));
      panel.append(picker({
        suits: SUITS, names: "sinbad", used,
        label: ui.tray.length ? "Which is the second card?" : "Or play a card: which one?",
        onPick: (code) => playCard(code, null),
      }));
    } else if (!needBudge && (v.paths || []).some((p) => !p.done) && canPlayNow(v)) {
      panel.append(el("p", { class: "hint big-hint", text: "To play a card, tap its path." }));
    }
  }

  function pathTitle(path) {
    if (path.title) return path.title;
    const suit = SUIT[suitOfNeed((path.need || [])[0])];
    const name = suit && path.id === (path.need || [])[0] ? suit.sinbad : path.id.replace(/[-_]/g, " ");
    return `${name} path`;
  }

  function choosePath(pathId) {
    ui.target = pathId;
    ui.suit = null;
    render();
  }

  function targetPicker(v) {
    const antics = ui.target === "antics";
    const path = antics ? null : (v.paths || []).find((p) => p.id === ui.target);
    const next = antics ? "antics" : path && pathNext(path);
    const suit = SUIT[suitOfNeed(next)];
    const box = el("div", { class: "target" });
    if (!suit) { ui.target = null; return box; }
    const where = antics ? "Antics go to the bank and wake the girl up"
                         : `on the ${pathTitle(path)}`;
    const used = new Set([...(v.paths || []).flatMap((p) => p.cards || []),
                          ...ui.tray.map((p) => p.card)]);
    box.append(picker({
      suits: [suit], names: "sinbad", used,
      label: antics ? `Which \u2660 card? ${where}.` : `Which ${suit.sym} card goes ${where}?`,
      onPick: (code) => playCard(code, antics ? null : path.id),
      extra: el("button", { class: "big", type: "button", id: "target-cancel",
                            onclick: () => { ui.target = null; render(); } }, "Cancel"),
    }));
    return box;
  }

  function playCard(code, pathId) {
    const placement = pathId ? { card: code, path: pathId } : { card: code };
    ui.target = null;
    if (ui.playMode === "draw_play") {
      sendSinbad({ action: "draw_play", cards: [placement] });
    } else if (ui.playMode === "two" && ui.tray.length === 0) {
      ui.tray.push(placement);
      render();
    } else {
      sendSinbad({ action: "play", cards: [...ui.tray, placement] });
    }
  }

  function tradePicker(v) {
    const box = el("div", { class: "target" });
    const bank = state.bank || {};
    const give = ui.trade.give;
    const onPath = new Set((v.paths || []).flatMap((p) => p.cards || []));
    if (!give) {
      box.append(picker({
        suits: SUITS, names: "sinbad", used: onPath,
        label: "Trade: which card does Sinbad put into the bank?",
        onPick: (code) => { ui.trade = { give: code }; ui.suit = null; render(); },
      }));
    } else {
      // The bank holds its own cards plus the one just given (S15g: give first).
      const suits = SUITS.filter((s) => {
        const word = BANK_SUITS.find(([, l]) => l === s.l)[0];
        return (bank[word] || 0) + (give.endsWith(s.l) ? 1 : 0) > 0;
      });
      box.append(el("p", { class: "picked" }, "Gives: ", cardFace(give)));
      box.append(picker({
        suits, names: "sinbad", used: onPath,
        label: "…and which card does he take from the bank?",
        onPick: (code) => sendSinbad({ action: "trade", give, take: code }),
      }));
    }
    box.append(el("div", { class: "actions" },
      el("button", { class: "big", type: "button", id: "trade-cancel",
                     onclick: () => { ui.trade = null; ui.suit = null; render(); } }, "Cancel")));
    return box;
  }

  let narrationShown = "";
  function renderNarration(v) {
    const lines = v.narration || [];
    const log = $("narration-log");
    const key = lines.join("\n");
    if (key !== narrationShown) {
      narrationShown = key;
      log.replaceChildren(...lines.slice(0, -1).slice(-2).reverse()
        .map((t) => el("li", { text: t })));
      if (lines.length) $("narration-now").textContent = lines[lines.length - 1];
    }
  }

  function resultWords(result) {
    switch (result) {
      case "sinbad": return { mark: "\u2605", title: "Sinbad wins!",
        text: "The story is told to the very end… and the girl is fast asleep." };
      case "jaffar": return { mark: "\u263E", title: "Jaffar wins!",
        text: "The girl fell asleep while Jaffar was winning. Mwahaha!" };
      case "draw": return { mark: "\u263E", title: "It's a draw",
        text: "The girl fell asleep, and nobody won the night." };
      default: return { mark: "", title: "", text: "" };
    }
  }

  function renderEnd(v) {
    const result = state.result || v.result;
    const box = $("end");
    if (!result || endDismissedFor === state.state_id) { box.hidden = true; return; }
    const words = resultWords(result);
    box.dataset.result = result;
    $("end-emoji").textContent = words.mark;
    $("end-title").textContent = words.title;
    $("end-text").textContent = words.text;
    $("end-undo").disabled = busy || v.can_undo === false;
    box.hidden = false;
  }

  function showEnd() { endDismissedFor = null; render(); }

  // ---------------------------------------------------------------------------------------
  // Talking to the table

  function setState(next) {
    if (!next || typeof next.state_id !== "number") return;
    const changed = !state || next.state_id !== state.state_id;
    state = next;
    if (changed) {
      ui = freshUi();
      liveQuestions.clear();
    }
    render();
  }

  function setOnline(yes, detail) {
    online = yes;
    $("offline").hidden = yes;
    document.body.dataset.online = yes ? "yes" : "no";
    if (detail) $("offline-detail").textContent = detail;
  }

  let messageTimer = null;
  function message(text, kind) {
    const box = $("message");
    box.textContent = text;
    box.className = "message " + (kind || "info");
    box.hidden = !text;
    clearTimeout(messageTimer);
    if (text) messageTimer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 12000 : 6000);
  }

  async function refresh() {
    try {
      const res = await fetch("/api/state", { cache: "no-store" });
      if (res.ok) setState(await res.json());
    } catch (err) {
      setOnline(false, "Trying again…");
    }
  }

  // POSTs ``body`` with the PIN and the state_id on screen: {res, data}, or null when
  // nothing was sent (busy, no PIN) or the table could not be reached (said on screen).
  async function post(url, body) {
    if (busy || !state) return null;
    const pin = await ensurePin();
    if (pin === null) return null;
    busy = true;
    render();
    let res;
    let data = {};
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Table-PIN": pin },
        body: JSON.stringify({ ...body, state_id: state.state_id }),
      });
      data = await res.json().catch(() => ({}));
    } catch (err) {
      busy = false;
      message("Could not reach the table. Nothing changed.", "error");
      render();
      return null;
    }
    busy = false;
    return { res, data };
  }

  // Sends one change; true when the table took it.
  async function change(url, body, retried) {
    const sent = await post(url, body);
    if (sent === null) return false;
    const { res, data } = sent;
    if (res.ok) {
      message("");
      setState(data);
      return true;
    }
    const reason = data.error || `the table answered ${res.status}`;
    if (res.status === 403) {
      localStorage.removeItem(STORE.pin);
      render();
      if (!retried && (await askPin(true)) !== null) return change(url, body, true);
      message("Wrong PIN: nothing changed.", "error");
    } else if (res.status === 409) {
      message("The table changed before your tap arrived. Here it is now: please try again.",
              "warn");
      await refresh();
    } else if (res.status === 422) {
      message("The rules say no: " + (data.reason || reason) +
              (data.ruling ? ` (${data.ruling})` : ""), "error");
      render();
    } else {
      message(reason, "error");
      render();
    }
    return false;
  }

  function sendLine(line) { return change("/api/actions", { line }); }
  function sendSinbad(action) { return sendLine({ sinbad: { ...sinbadBase(), ...action } }); }
  function autoJaffar() { return change("/api/jaffar/auto", {}); }
  function answerQuestion(id, choice) {
    return change(`/api/questions/${encodeURIComponent(id)}`, { choice });
  }

  // "It's the queen of spades": the game goes on with the real card, and the deck profile
  // learns the camera's picture of it (POST /api/captures/<id>/correct).
  async function fixCard(capture, code, extra, retried) {
    const sent = await post(`/api/captures/${encodeURIComponent(capture)}/correct`,
                            { card: code, ...(extra || {}) });
    if (sent === null) return false;
    const { res, data } = sent;
    if (res.ok) {
      ui.fixing = null;
      setState(data);
      const c = data.correction || {};
      const unclear = extra && extra.unclear
        ? " (the picture was too unclear for the camera to learn from)" : "";
      message(c.learned ? `${c.note}: the camera will know it next time.`
                        : `${c.note || "Put right"}.${unclear}`, "info");
      return true;
    }
    if (res.status === 403) {
      localStorage.removeItem(STORE.pin);
      render();
      if (!retried && (await askPin(true)) !== null) return fixCard(capture, code, extra, true);
      message("Wrong PIN: nothing changed.", "error");
    } else if (res.status === 409 && data.profile === null) {
      offerDeck(capture, code, data);
    } else if (res.status === 422 && !(extra && extra.learn === false)) {
      return fixCard(capture, code, { learn: false, unclear: true });
    } else if (res.status === 409 && typeof data.state_id === "number") {
      message("The table changed before your tap arrived. Here it is now: please try again.",
              "warn");
      await refresh();
    } else {
      message(data.error || `the table answered ${res.status}`, "error");
      render();
    }
    return false;
  }

  // No deck profile yet: offer to start one, or only put the game right.
  function offerDeck(capture, code, data) {
    const dialog = $("learn-dialog");
    const deck = data.suggested_deck || "table";
    $("learn-why").textContent = data.error || "";
    $("learn-start").textContent = `Remember this deck ("${deck}")`;
    $("learn-start").onclick = () => { dialog.close(); fixCard(capture, code, { deck }); };
    $("learn-skip").onclick = () => { dialog.close(); fixCard(capture, code, { learn: false }); };
    if (!dialog.open) dialog.showModal();
  }

  // The event stream, reconnected with backoff by hand: EventSource gives up for good on
  // some failures (a restarted server answering 5xx), and a sleeping tablet's Wi-Fi can leave
  // a half-open connection that only a missing heartbeat reveals.
  let source = null;
  let backoff = 1000;
  let watchdog = null;
  let retryTimer = null;

  function kick() {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => dropped("No news from the table for a while."), WATCHDOG_MS);
  }

  function dropped(why) {
    if (source) { source.close(); source = null; }
    clearTimeout(watchdog);
    setOnline(false, `${why || ""} Trying again in ${Math.round(backoff / 1000)} s…`.trim());
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 15000);
  }

  function connect() {
    clearTimeout(retryTimer);
    if (source) source.close();
    source = new EventSource("/api/stream");
    source.addEventListener("open", () => { backoff = 1000; setOnline(true); kick(); });
    source.addEventListener("state", (e) => { kick(); setOnline(true); setState(JSON.parse(e.data)); });
    source.addEventListener("say", (e) => { kick(); speak(JSON.parse(e.data).text); });
    source.addEventListener("question", (e) => {
      kick();
      const q = JSON.parse(e.data);
      if (q && q.id) { liveQuestions.set(q.id, q); render(); }
    });
    source.addEventListener("ping", kick);
    source.addEventListener("error", () => dropped("Lost contact."));
  }

  // ---------------------------------------------------------------------------------------
  // The PIN: asked once, kept on this tablet.

  let pinWaiter = null;
  function ensurePin() {
    const kept = localStorage.getItem(STORE.pin);
    if (kept) return Promise.resolve(kept);
    return askPin(false);
  }

  function askPin(wrong) {
    const dialog = $("pin-dialog");
    $("pin-error").hidden = !wrong;
    $("pin-input").value = "";
    if (!dialog.open) dialog.showModal();
    $("pin-input").focus();
    return new Promise((resolve) => { pinWaiter = resolve; });
  }

  function finishPin(value) {
    const dialog = $("pin-dialog");
    if (dialog.open) dialog.close();
    if (value) localStorage.setItem(STORE.pin, value);
    const waiter = pinWaiter;
    pinWaiter = null;
    if (waiter) waiter(value || null);
  }

  // ---------------------------------------------------------------------------------------
  // Reading aloud

  const speech = loadSpeech();

  function loadSpeech() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE.speech) || "{}");
      return { on: saved.on !== false, voice: saved.voice || "", rate: Number(saved.rate) || 1 };
    } catch (err) {
      return { on: true, voice: "", rate: 1 };
    }
  }

  function saveSpeech() {
    localStorage.setItem(STORE.speech, JSON.stringify(speech));
    const toggle = $("speech-toggle");
    toggle.setAttribute("aria-pressed", speech.on ? "true" : "false");
    toggle.textContent = speech.on ? "Voice on" : "Voice off";
    $("speech-on").checked = speech.on;
    $("speech-rate").value = String(speech.rate);
    $("speech-rate-out").textContent = `${speech.rate.toFixed(1)}×`;
  }

  function speak(text, force) {
    if (!text) return;
    $("narration-now").textContent = text;
    $("narration").classList.remove("fresh");
    void $("narration").offsetWidth;
    $("narration").classList.add("fresh");
    if (!(speech.on || force) || !("speechSynthesis" in window)) return;
    const u = new SpeechSynthesisUtterance(text);
    const voice = speechSynthesis.getVoices().find((x) => x.name === speech.voice);
    if (voice) u.voice = voice;
    u.rate = speech.rate;
    speechSynthesis.speak(u);
  }

  function fillVoices() {
    if (!("speechSynthesis" in window)) return;
    const select = $("speech-voice");
    const voices = speechSynthesis.getVoices();
    select.replaceChildren(el("option", { value: "", text: "Default" }),
      ...voices.map((v) => el("option", { value: v.name, text: `${v.name} (${v.lang})`,
                                          selected: v.name === speech.voice })));
  }

  // ---------------------------------------------------------------------------------------
  // Keeping the screen awake

  let wakeLock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } catch (err) {
      wakeLock = null;   // refused (battery saver, no user gesture yet): retried on next tap
    }
  }

  // ---------------------------------------------------------------------------------------
  // The menu: reading aloud, games, the record

  async function openMenu() {
    fillVoices();
    saveSpeech();
    const dialog = $("menu");
    if (!dialog.open) dialog.showModal();
    try {
      const res = await fetch("/api/games", { cache: "no-store" });
      const data = await res.json();
      const current = state && (view().game_id ?? state.game_id);
      $("games").replaceChildren(...(data.games || []).map((g) => {
        const here = g.current || g.id === current;
        const about = [g.title || `Game ${g.id}`,
                       g.result ? `(${resultWords(g.result).title})` : `turn ${g.turn ?? 0}`];
        return el("li", { class: here ? "current" : "" },
          el("span", { text: about.join(" ") }),
          here ? el("strong", { text: " — playing now" })
               : el("button", { class: "big", type: "button",
                                onclick: () => switchGame(g.id) }, "Play this one"));
      }));
      $("campaign-choice").replaceChildren(...(data.campaigns || []).map((c) =>
        el("option", { value: c.file, text: c.title })));
      $("game-new").disabled = !(data.campaigns || []).length;
    } catch (err) {
      $("games").replaceChildren(el("li", { text: "Could not load the games." }));
    }
  }

  async function switchGame(id) {
    if (await change(`/api/games/${id}/switch`, {})) $("menu").close();
  }

  async function newGame() {
    const campaign = $("campaign-choice").value;
    if (!campaign || busy) return;
    const pin = await ensurePin();
    if (pin === null) return;
    busy = true;
    try {
      const res = await fetch("/api/games", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Table-PIN": pin },
        body: JSON.stringify({ campaign }),
      });
      const data = await res.json().catch(() => ({}));
      busy = false;
      if (res.ok) {
        endDismissedFor = null;
        setState(data.state);
        $("menu").close();
        message("A new game begins!", "info");
      } else {
        if (res.status === 403) localStorage.removeItem(STORE.pin);
        message(data.error || "The table would not start a game.", "error");
      }
    } catch (err) {
      busy = false;
      message("Could not reach the table.", "error");
    }
    render();
  }

  // ---------------------------------------------------------------------------------------
  // Wiring

  function wire() {
    $("undo").addEventListener("click", () => change("/api/undo", {}));
    $("redo").addEventListener("click", () => change("/api/redo", {}));
    $("end-undo").addEventListener("click", () => change("/api/undo", {}));
    $("end-close").addEventListener("click", () => { endDismissedFor = state.state_id; render(); });
    $("end-new").addEventListener("click", () => { endDismissedFor = state.state_id; render();
                                                   openMenu(); });
    $("speech-toggle").addEventListener("click", () => {
      speech.on = !speech.on;
      saveSpeech();
      if (!speech.on && "speechSynthesis" in window) speechSynthesis.cancel();
    });
    $("menu-open").addEventListener("click", openMenu);
    $("menu-close").addEventListener("click", () => $("menu").close());
    $("speech-on").addEventListener("change", (e) => { speech.on = e.target.checked; saveSpeech(); });
    $("speech-voice").addEventListener("change", (e) => { speech.voice = e.target.value; saveSpeech(); });
    $("speech-rate").addEventListener("input", (e) => {
      speech.rate = Number(e.target.value) || 1; saveSpeech();
    });
    $("speech-test").addEventListener("click", () =>
      speak("Once upon a time, there was a gate. PRINCESS... a GATE.", true));
    $("game-new").addEventListener("click", newGame);
    $("pin-forget").addEventListener("click", () => {
      localStorage.removeItem(STORE.pin);
      message("This tablet forgot the PIN.", "info");
    });
    $("pin-form").addEventListener("submit", (e) => {
      e.preventDefault();
      finishPin($("pin-input").value.trim());
    });
    $("pin-cancel").addEventListener("click", () => finishPin(null));
    $("pin-dialog").addEventListener("cancel", () => finishPin(null));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        keepAwake();
        if (!online) connect();
      }
    });
    // A wake lock and speech both need a user gesture first; every tap is a chance.
    document.addEventListener("pointerdown", () => {
      keepAwake();
      if (!speechUnlocked && speech.on && "speechSynthesis" in window) {
        speechUnlocked = true;   // Safari and Chrome on tablets speak only after a gesture
        speechSynthesis.speak(new SpeechSynthesisUtterance(""));
      }
    }, { passive: true });
    if ("speechSynthesis" in window) speechSynthesis.addEventListener("voiceschanged", fillVoices);
  }

  wire();
  saveSpeech();
  keepAwake();
  refresh();
  connect();

  // For scripts and the browser tests: read-only peeks at what the page holds.
  window.tablePage = {
    get state() { return state; },
    get online() { return online; },
    get speech() { return { ...speech }; },
    // Shared with teach.js (the "Teach this deck" screen).
    ensurePin,
    forgetPin() { localStorage.removeItem(STORE.pin); },
    cardFace,
    cardName,
    closeMenu() { if ($("menu").open) $("menu").close(); },
  };
})();
