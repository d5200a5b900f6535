// The replay page: a finished game step by step, seen as any seat, a spectator or everyone,
// with move analysis and "Play from here". Built on potluck.js.
"use strict";

(() => {
  const { el, api, render, who, says, seatNames, plural, listOf } = Potluck;

  function replayPage() {
    const id = Potluck.tableIdFromPath();
    const root = document.getElementById("screen");
    const notice = document.getElementById("notice");
    const slider = document.getElementById("step");
    const as = document.getElementById("as");
    const where = document.getElementById("where");
    const said = document.getElementById("last");
    let step = 0;
    let steps = 0;
    let loaded = false;
    let table = null;
    let asked = 0;  // answers to older requests that arrive late are dropped

    async function show(next) {
      step = Math.max(0, Math.min(next, steps || next));
      const ticket = ++asked;
      const seen = as.value;
      const query = seen === "all" ? "everyone=true" : seen === "spectator" ? "" : `seat=${seen}`;
      try {
        const data = await api("GET", `/api/tables/${id}/replay?step=${step}&${query}`);
        if (ticket !== asked) return;
        steps = data.steps;
        table = data.table;
        slider.max = steps;
        slider.value = step;
        slider.setAttribute("aria-valuetext", `step ${step} of ${steps}`);
        const names = seatNames(data.table);
        if (!loaded) {
          loaded = true;
          as.replaceChildren(el("option", { value: "spectator", text: "a spectator" }),
            el("option", { value: "all", text: "everyone (all-seeing)" }),
            ...data.table.seats.map((s) => el("option", { value: s.seat, text: `seat ${s.seat + 1}: ${names[s.seat]}` })));
          as.value = seen;
          analysable();
        }
        where.textContent = `${data.table.title}: the replay`;
        document.getElementById("counter").textContent = `step ${step} of ${steps}`;
        const viewer = data.seat === undefined ? null : data.seat;
        const shown = { table: data.table, seat: viewer };
        said.textContent = !data.last ? "The start of the game."
          : data.last.action === null ? `Last: ${who(shown, data.last.seat, true)} made a sealed choice (shown once it is revealed).`
            : `Last: ${who(shown, data.last.seat, true)} played ${data.last.label ? says(shown, data.last.label) : data.last.action}`
              .replace(/([^!?.])$/, "$1.");  // a stop, but none after a card's own "!"
        root.replaceChildren();
        const ctx = { readOnly: true, act() {}, explain() { return null; } };
        const views = data.views ? data.views.map((v, s) => [v, s]) : [[data.view, viewer]];
        for (const [view, seat] of views) {
          // render() clears the element it draws in, so the heading sits outside it.
          const screen = el("div", { class: "replay-screen" });
          const box = el("div", { class: "replay-view", "data-seat": seat },
            data.views ? el("h2", { text: `As seat ${seat + 1}: ${names[seat]}` }) : null, screen);
          root.append(box);
          render(screen, { table: data.table, view, seat, to_act: data.to_act, legal: [], illegal: {}, outcome: null, step }, ctx);
        }
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    }

    const analyse = document.getElementById("analyse");
    const analysis = document.getElementById("analysis");
    const pct = (x) => `${Math.round(100 * x)}%`;
    const pct1 = (x) => `${(100 * x).toFixed(1)}%`;
    const seconds = (x) => `${x.toFixed(1)} s`;
    function chosenSeat() {
      const seat = Number(as.value);
      return as.value !== "spectator" && as.value !== "all" && Number.isInteger(seat) ? seat : null;
    }
    function analysable() {
      const seat = chosenSeat();
      analyse.disabled = seat === null;
      analyse.textContent = seat === null ? "Choose a seat to analyse its moves" : `Analyse ${table ? seatNames(table)[seat] : `seat ${seat + 1}`}'s moves`;
    }
    analyse.onclick = async () => {
      const seat = chosenSeat();
      analyse.disabled = true;
      analysis.replaceChildren(el("p", { text: "Analysing… (playouts for each move, at most about 2 s of CPU a move; this can take a few minutes)" }));
      try {
        // The server answers at once: 202 with its progress while it judges the moves
        // (one at a time, other players' analyses taking turns, play first), 200 when done.
        let data = await api("GET", `/api/tables/${id}/analysis?seat=${seat}`);
        while (data.status !== "done") {
          if (data.status === "failed") throw new Error("The analysis failed; try again later.");
          analysis.replaceChildren(
            el("p", { text: `Analysing ${seatNames(table)[seat]}'s moves: ${data.done} of ${data.total} judged (games being played come first).` }),
            el("progress", { max: String(Math.max(data.total, 1)), value: String(data.done), "aria-label": "analysis progress" }));
          await new Promise((resolve) => setTimeout(resolve, 1000));
          data = await api("GET", `/api/tables/${id}/analysis?seat=${seat}`);
        }
        const counts = [["inaccuracy", "inaccuracies"], ["mistake", "mistakes"], ["blunder", "blunders"]]
          .map(([one, many]) => plural(data.moves.filter((m) => m.verdict === one).length, one, many));
        analysis.replaceChildren(
          el("p", { text: `${seatNames(table)[seat]}, judged by ${data.bot}: ${listOf(counts)}. ` +
            `A win chance is the share of playouts this seat won, from positions it could not tell apart, ` +
            `every seat then playing as the greedy bot does; a loss is shrunk by its noise and a verdict needs it to stand out of it. ` +
            `Points lost: the seat's score less the others' mean, in the game's points, given up against the preferred move. ` +
            `${seconds(data.moves.reduce((sum, m) => sum + (m.seconds || 0), 0))} of CPU in all, ` +
            `the slowest move ${seconds(Math.max(0, ...data.moves.map((m) => m.seconds || 0)))}.` }),
          ...(data.summary && data.summary.choices ? [el("p", { class: "analysis-summary", text:
            `Mean loss over ${plural(data.summary.choices, "move", "moves")} with a choice: ` +
            `${pct1(data.summary.mean_loss)} ±${pct1(data.summary.loss_stderr)} of win chance a move, ` +
            `${data.summary.mean_points_lost.toFixed(2)} ±${data.summary.points_stderr.toFixed(2)} points ` +
            `(each move's loss uncut, so its noise averages out).` })] : []),
          el("div", { class: "scroll" }, el("table", { class: "analysis data" },
            el("thead", {}, el("tr", {}, ...["Move", "Played", "Win chance after", "Preferred", "With it", "Loss", "Verdict", "Points lost", "Time"].map((h) => el("th", { text: h })))),
            el("tbody", {}, ...data.moves.map((m) => el("tr", { class: m.verdict || "" },
              el("td", {}, el("button", { text: String(m.number), title: "show the game before this move", onclick: () => show(m.number - 1) })),
              el("td", { text: m.played }),
              el("td", { text: pct(m.after) }),
              el("td", { text: m.forced ? "(forced: the only move)" : m.preferred === m.played ? "(the same)" : m.preferred }),
              el("td", { text: pct(m.before) }),
              el("td", { text: m.loss > 0 ? `${pct(m.loss)} ±${pct(m.stderr || 0)}` : pct(m.loss) }),
              el("td", { text: m.verdict || "" }),
              el("td", { text: (m.point_loss || 0) > 0 ? (m.point_loss).toFixed(1) : "0" }),
              el("td", { text: seconds(m.seconds || 0) })))))));
      } catch (error) { analysis.replaceChildren(el("p", { class: "error", text: error.message })); }
      analysable();
    };

    document.getElementById("play-here").onclick = async () => {
      const mine = chosenSeat() === null ? 0 : chosenSeat();
      try {
        const meta = await api("GET", `/api/tables/${id}/replay?step=0`);
        const seats = meta.table.seats.map((s) => (s.seat === mine ? "human" : "medium"));
        const created = await api("POST", "/api/tables", { game: meta.table.game, seats, from_table: id, from_step: step });
        Potluck.remember(created.id);
        window.location.href = created.join[0].join;
      } catch (error) { notice.textContent = error.message; notice.className = "notice error"; }
    };

    document.getElementById("first").onclick = () => show(0);
    document.getElementById("back").onclick = () => show(step - 1);
    document.getElementById("next").onclick = () => show(step + 1);
    document.getElementById("last-step").onclick = () => show(steps);
    slider.oninput = () => show(Number(slider.value));
    as.onchange = () => { analysable(); analysis.replaceChildren(); show(step); };
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLElement && event.target.matches("input, select, textarea")) return;
      if (event.key === "ArrowRight") show(step + 1);
      if (event.key === "ArrowLeft") show(step - 1);
    });
    show(0);
  }

  Potluck.pages.replay = replayPage;
})();
