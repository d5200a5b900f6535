// Belle of the Ball's game screen: the line of guests waiting at the door (with the chips
// left on them), your party's groups, the other parties, and your Belles. Tap a guest, then
// the group to seat them in; illegal choices say why on hover. Draws only from the view.
"use strict";

(() => {
  const { el, who, says, seatsPanel, actionButton, otherActions, saying, plural } = Potluck;
  // Symbols every system font has, one per interest, with a colour each.
  const INTERESTS = {
    hearts: ["♥", "#e03131"], globes: ["◍", "#1971c2"], books: ["▤", "#7048e8"], music: ["♪", "#0c8599"],
    masks: ["☻", "#495057"], brushes: ["✎", "#e8590c"], stars: ["★", "#f59f00"], horses: ["♞", "#8d5524"],
    teacups: ["☕", "#2b8a3e"], roses: ["✿", "#c2255c"],
  };
  const FAMILIES = { mirth: "#fff3bf", mischief: "#e7f5ff", mayhem: "#fff0f6" };
  const BENT = {
    free_skips: "skipping is free", four_is_full: "four guests make a full group",
    singles_score: "every interest scores", fifth_group: "a fifth group is allowed",
  };
  let selected = null;  // the line position the player tapped, kept across redraws
  let shownStep = null;  // the step of the payload last drawn

  function interest(name) {
    const [symbol, colour] = INTERESTS[name] || ["?", "#868e96"];
    return el("span", { class: "interest", style: `--i:${colour}`, title: name, "data-interest": name, text: symbol });
  }

  // The ten interests with their names: a phone has no hover to read a symbol's title.
  function legend(view) {
    return el("div", { class: "legend", id: "legend" }, view.interests.map((name) =>
      el("span", { class: "legend-item" }, interest(name), name)));
  }

  function guestCard(guest, extra) {
    if (guest.belle) {
      return el("div", { class: "card belle", style: `--fam:${FAMILIES[guest.family] || "#fff"}`, title: guest.text, ...(extra || {}) },
        el("div", { class: "card-name", text: guest.name }),
        el("div", { class: "family", text: `Belle · ${guest.family}` }));
    }
    return el("div", { class: "card guest", title: `${guest.name}: ${guest.interests.join(", ")}`, ...(extra || {}) },
      el("div", { class: "card-name", text: guest.name }),
      el("div", { class: "interests" }, guest.interests.map(interest)));
  }

  // Interests shown by two or more guests of a group: what it scores.
  function shared(group) {
    const counts = {};
    for (const g of group) for (const i of g.interests || []) counts[i] = (counts[i] || 0) + 1;
    return Object.entries(counts).filter(([, n]) => n >= 2).map(([i, n]) => [i, n]);
  }

  function groupBox(payload, ctx, group, slot, own) {
    const hits = shared(group);
    const box = el("div", { class: `group${group.length ? "" : " empty"}`, "data-group": slot + 1 },
      el("div", { class: "group-head" }, el("span", { class: "muted", text: `Group ${slot + 1}` }),
        hits.length ? el("span", { class: "scores", title: "interests shared by two or more guests" },
          hits.map(([i, n]) => el("span", {}, interest(i), `×${n}`))) : null),
      el("div", { class: "group-guests" }, group.map((g) => guestCard(g, { class: `card ${g.belle ? "belle" : "guest"} small` }))));
    if (own && !ctx.readOnly && selected !== null) {
      const action = `invite ${selected} to group ${slot + 1}`;
      if (payload.legal.some((a) => a.action === action) || payload.illegal[action]) {
        box.append(actionButton(payload, ctx, action, { class: "seat-here" }, `Seat guest ${selected} in group ${slot + 1}`));
      }
    }
    return box;
  }

  function party(payload, ctx, player) {
    const view = payload.view;
    const own = player.seat === view.seat;
    // Four groups a party, a fifth only while Grand Dame Gwendolyn's effect holds (or one
    // already seated there).
    const fifth = own && view.turn === view.seat && view.this_turn.rules_bent.includes("fifth_group");
    return el("section", { class: `panel party${own ? " mine" : ""}`, id: own ? "party" : `party-${player.seat}`, "data-seat": player.seat },
      el("h2", {}, own ? "Your party" : `${who(payload, player.seat, true)}'s party`,
        view.turn === player.seat ? el("span", { class: "badge turn", text: "turn" }) : null,
        view.start_player === player.seat && view.turn !== null ? el("span", { class: "badge start", title: "the Start Player token: first to invite each round", text: "★ start" }) : null,
        payload.table.seats[player.seat].kind === "bot" ? el("span", { class: "badge bot", text: "bot" }) : null),
      el("div", { class: "party-stats" },
        el("span", { class: "chips", title: "chips", text: `● ${player.chips}` }),
        el("span", { class: "muted", text: `${plural(player.hand_size, "Belle")} in hand · ${plural(player.full_groups_scored, "full group")} scored for ${plural(player.chips_from_groups, "chip")} · ${plural(player.chips_spent_skipping, "chip")} spent skipping` })),
      // The variant: Belles taken from the line were seen by all, so their names are shown.
      !own && player.belles_taken_openly && player.belles_taken_openly.length
        ? el("p", { class: "muted taken-openly", text: `Belles taken from the line: ${player.belles_taken_openly.map((slug) => slug.replace(/-/g, " ")).join(", ")}` })
        : null,
      el("div", { class: "groups" }, player.groups.map((group, slot) =>
        (group.length || (own && (slot < 4 || fifth))) ? groupBox(payload, ctx, group, slot, own) : null)));
  }

  function line(payload, ctx, redraw) {
    const view = payload.view;
    const free = view.this_turn.rules_bent.includes("free_skips");
    const cost = (pos) => (free ? 0 : pos - 1);
    const canInvite = (pos) => payload.legal.some((a) => a.action.startsWith(`invite ${pos} `) || a.action === `invite ${pos}`);
    return el("div", { class: "line", id: "line", "data-keep-scroll": "line" }, view.line.length ? view.line.map((g) => {
      const can = !ctx.readOnly && canInvite(g.position);
      const direct = payload.legal.find((a) => a.action === `invite ${g.position}`);
      const card = guestCard(g, {
        class: `card ${g.belle ? "belle" : "guest"}${can ? " can" : ""}${selected === g.position ? " selected" : ""}`,
        "data-position": g.position, role: can ? "button" : null, tabindex: can ? "0" : null,
        onclick: can ? () => { selected = g.position; redraw(); } : null,
      });
      return el("div", { class: "spot", "data-spot": g.position },
        el("div", { class: "pos", text: String(g.position) }), card,
        g.chips ? el("div", { class: "line-chips", title: "chips left by those who skipped this guest: whoever invites them collects these", text: `+● ${g.chips}` }) : null,
        view.turn !== null ? el("div", { class: "cost", title: "one chip on each guest skipped", text: cost(g.position) ? `costs ● ${cost(g.position)}` : "free" }) : null,
        direct && !ctx.readOnly ? actionButton(payload, ctx, direct.action, { class: "small" }, saying(payload, direct.action, "take to hand")) : null);
    }) : el("p", { class: "muted", text: "The line is empty." }));
  }

  // One of a Belle's plays, to ask why it is not possible now: her plain play, or for a
  // Belle with a target, her play on the first rival (the notation needs the target).
  const TARGETS = { pickpocket: (rival) => ` on seat ${rival}`, scandal: (rival) => ` on seat ${rival} group 1`, move_guest: () => " group 1 to 2" };
  function anyPlay(view, belle) {
    const rival = view.players.find((p) => p.seat !== view.seat);
    const target = TARGETS[belle.effect];
    return `belle ${belle.belle}${target && rival ? target(rival.seat) : ""}`;
  }

  function hand(payload, ctx) {
    const view = payload.view;
    if (!view.you) return null;
    return el("section", { class: "panel", id: "hand" }, el("h2", { text: "Your Belles" }),
      view.you.hand.length ? el("div", { class: "belles" }, view.you.hand.map((b) => {
        const plays = payload.legal.filter((a) => a.action === `belle ${b.belle}` || a.action.startsWith(`belle ${b.belle} `));
        const simple = `belle ${b.belle}`;
        const targeted = plays.filter((a) => a.action !== simple);
        return el("div", { class: "card belle big", style: `--fam:${FAMILIES[b.family] || "#fff"}` },
          el("div", { class: "card-name", text: b.name }),
          el("div", { class: "family", text: b.family }),
          el("p", { class: "effect", text: b.text }),
          targeted.length
            ? el("div", { class: "actions" }, targeted.map((a) => actionButton(payload, ctx, a.action, { class: "small" }, says(payload, a.label))))
            : ctx.readOnly ? null : actionButton(payload, ctx, anyPlay(view, b), { class: "small" }, saying(payload, simple, `Play ${b.name}`)));
      })) : el("p", { class: "muted", text: "No Belles in hand." }));
  }

  // The end of the ball: every party by chips, best first, and how it earned them.
  function standings(payload, ctx) {
    const view = payload.view;
    const order = view.players.map((p) => p.seat).sort((a, b) => view.final_scores[b] - view.final_scores[a]);
    return el("section", { class: "notice good standings", id: "final" },
      el("strong", { text: "Final chips" }), ctx.readOnly ? ` · ${says(payload, view.result)}` : null,
      el("ol", {}, order.map((s) => {
        const p = view.players[s];
        return el("li", { class: view.winners.includes(s) ? "winner" : null },
          el("span", { class: "who", text: who(payload, s, true) }),
          el("span", { class: "chips", text: `● ${view.final_scores[s]}` }),
          el("span", { class: "muted", text: `${plural(p.full_groups_scored, "full group")} for ${plural(p.chips_from_groups, "chip")} · ${plural(p.chips_spent_skipping, "chip")} spent skipping` }));
      })));
  }

  Potluck.renderers["belle-of-the-ball"] = (root, payload, ctx) => {
    const view = payload.view;
    const positions = view.line.map((g) => g.position);
    if (selected !== null && !positions.includes(selected)) selected = null;
    // On each new decision, choose a guest who can be seated unless the chosen one can;
    // a tap (the same step, redrawn) keeps the player's choice.
    if (payload.step !== shownStep && !ctx.readOnly) {
      shownStep = payload.step;
      const seatable = (pos) => payload.legal.some((a) => a.action.startsWith(`invite ${pos} to`));
      if (selected === null || !seatable(selected)) {
        const first = payload.legal.map((a) => /^invite (\d+) to/.exec(a.action)).find(Boolean);
        if (first) selected = Number(first[1]);
      }
    }
    const redraw = () => Potluck.render(root, payload, ctx);
    const t = view.this_turn;
    const notes = [];
    if (t.belle_played) notes.push(`Belle played: ${t.belle_played}`);
    if (t.rules_bent.length) notes.push(`this turn ${t.rules_bent.map((r) => BENT[r] || Potluck.words(r)).join(", ")}`);
    if (view.turn !== null) notes.push(`${plural(t.invites_left, "invitation")} left`);
    const screen = el("div", { class: "belle" });
    if (view.final_scores) screen.append(standings(payload, ctx));
    screen.append(el("section", { class: "felt ballroom", id: "ballroom" },
      el("h2", { text: view.turn === null ? "The ball is over" : `Round ${view.round} · ${who(payload, view.turn) === "you" ? "your" : `${who(payload, view.turn, true)}'s`} turn` }),
      el("p", { class: "status", text: `${notes.join(" · ")}${notes.length ? " · " : ""}${plural(view.decks.guest_deck, "guest")} still to arrive (${plural(view.rounds_left_after_this, "more round")}) · ${plural(view.decks.belle_deck, "Belle")} in the deck, ${view.belle_discard.length} on the discard pile · ${plural(view.guest_discard.length, "guest")} gone home` }),
      el("h3", { text: `The line at the door (${plural(view.line.length, "guest")})` }),
      view.line.length > 4 ? el("p", { class: "scroll-hint", "aria-hidden": "true", text: "Swipe the line sideways to see every guest →" }) : null,
      line(payload, ctx, redraw),
      legend(view)));
    const me = view.players.find((p) => p.seat === view.seat);
    const others = view.players.filter((p) => p.seat !== view.seat);
    const left = el("div", {});
    if (!ctx.readOnly && me) {
      const shown = new Set(payload.legal.map((a) => a.action).filter((a) => a.startsWith("invite ") || a.startsWith("belle ")));
      left.append(el("section", { class: "panel", id: "moves" }, el("h2", { text: "Your move" }),
        payload.legal.length
          ? [el("p", { class: "muted", text: selected !== null ? `Guest ${selected} is chosen: seat them in one of your groups, or tap another guest.` : "Play a Belle, or tap a guest in the line." }),
            otherActions(payload, ctx, shown)].filter(Boolean)
          : el("p", { class: "muted", id: "waiting", text: "Nothing to do now." })));
    }
    if (me) left.append(party(payload, ctx, me));
    left.append(hand(payload, ctx) || el("span"));
    screen.append(el("div", { class: "grid two" }, left, el("div", {}, others.map((p) => party(payload, ctx, p)))));
    screen.append(seatsPanel(payload));
    root.append(screen);
  };
})();
