// Settings → Memory without reloading the page: each action (add, edit, delete, clear, the
// switch) is queued and sent one at a time, in the order it was asked, each against the list
// the previous answer left; every answer's notice stays shown until the queue is done, the
// action on its way says so ("Saving…", "Deleting…", "Clearing…"), and whatever fails, the
// section ends as the server has it. Plain JavaScript, no build step; without this file every
// form here is a plain post.
(() => {
  "use strict";

  const SECTION = "[data-memory-section]";

  const ADD_BOX = ".add-line input[name=text]";

  const SHOW_SOURCES = "[data-show-sources]";

  // The control that has the focus, as something to find in a fresh section: its id, else its
  // name (a line's Edit and Delete are named after their line).
  function focusKey(section) {
    const active = document.activeElement;
    if (!active || active === section || !section.contains(active)) return null;
    if (active.id) return `#${CSS.escape(active.id)}`;
    const name = active.getAttribute("aria-label");
    if (name) return `${active.localName}[aria-label="${CSS.escape(name)}"]`;
    if (active.matches(".memory-row > summary")) return ".memory-row > summary";
    return null;
  }

  // What the person is typing in the add box meanwhile stays, with the cursor, whatever list
  // the answer draws; so do the sources' toggle and the focus, where its control is still there.
  function swapSection(section, html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.querySelector(SECTION);
    if (!fresh) return null;
    const box = section.querySelector(ADD_BOX);
    const typing = box && document.activeElement === box;
    const typed = box?.value || "";
    const at = typing ? [box.selectionStart, box.selectionEnd] : null;
    const focused = typing ? null : focusKey(section);
    const sources = section.querySelector(SHOW_SOURCES)?.checked;
    const freshSources = fresh.querySelector(SHOW_SOURCES);
    if (freshSources && sources) freshSources.checked = true;
    section.replaceWith(fresh);
    const next = fresh.querySelector(ADD_BOX);
    if (next && typed) next.value = typed;
    if (next && typing) {
      next.focus({ preventScroll: true });
      next.setSelectionRange(at[0], at[1]);
    }
    if (focused) {
      // Its control gone with its line (a pass took it): the list's own row, not the page.
      const control = fresh.querySelector(focused) || fresh.querySelector(".memory-row > summary");
      (control || fresh.querySelector("[role=switch]"))?.focus({ preventScroll: true });
    }
    return fresh;
  }

  // A visitor's first action makes them a guest, and logging in rotates the CSRF token: the
  // fresh section carries the new one; the page's other forms take it too.
  function adoptCsrfToken(fresh) {
    const token = fresh.querySelector("input[name=csrfmiddlewaretoken]")?.value;
    if (!token) return;
    document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => {
      input.value = token;
    });
  }

  function focusNotice(section) {
    const target = section.querySelector(".notice, .memory-empty");
    if (!target) return;
    target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  const lineOf = (form) => form.closest("li")?.querySelector(".memory-line")?.textContent;

  // What the person asked, taken when they asked it: the form's fields, and for a line's own
  // form the line itself, found again in whatever list is shown when the action's turn comes
  // (an earlier delete moves the indexes; an earlier add or switch moves the version).
  function intentOf(form) {
    let kind = "save";
    if (form.matches("[data-delete-line]")) kind = "delete";
    else if (form.closest("dialog")) kind = "clear";
    else if (form.matches(".memory-switch")) kind = "switch";
    const item = form.closest(".memory-lines > li");
    const shown = item ? [...item.parentElement.querySelectorAll(":scope > li:not([hidden])")] : [];
    return {
      kind,
      action: form.getAttribute("action"),
      data: new FormData(form),
      line: lineOf(form),
      place: item ? shown.indexOf(item) : undefined, // where its line was shown
    };
  }

  // The intent's form in the section shown now, or null when its line is gone.
  function formFor(section, intent) {
    if (intent.line === undefined) {
      // A form no longer drawn (the clear's, once the list is empty) is sent as asked.
      return section.querySelector(`form[action="${CSS.escape(intent.action)}"]`) || section;
    }
    const item = [...section.querySelectorAll(".memory-lines > li")].find(
      (li) => li.querySelector(".memory-line")?.textContent === intent.line,
    );
    if (!item) return null;
    return item.querySelector(intent.kind === "delete" ? "[data-delete-line]" : ".line-form");
  }

  function notice(text, level) {
    const note = document.createElement("p");
    note.className = `notice ${level}`;
    note.setAttribute("role", level === "error" ? "alert" : "status");
    note.textContent = text;
    return note;
  }

  function setupMemory() {
    const queue = [];
    let running = false;
    let carried = []; // the notices of this run's earlier answers

    const section = () => document.querySelector(SECTION);
    const texts = () => section()?.dataset || {};

    // Shown above the section while actions are on their way (it outlives each swap).
    let status = null;
    function showPending(kind) {
      const current = section();
      if (!current) return;
      if (!status || !status.isConnected) {
        status = document.createElement("p");
        status.className = "memory-pending";
        status.setAttribute("role", "status");
        status.dataset.memoryPending = "";
        current.before(status);
      }
      const label =
        { delete: texts().pendingDelete, clear: texts().pendingClear }[kind] ||
        texts().pendingSave;
      const waiting = queue.length + (running ? 1 : 0);
      status.textContent = waiting > 1 ? `${label} (${waiting})` : label;
      status.hidden = false;
      current.setAttribute("aria-busy", "true");
      current.classList.add("is-pending");
    }
    function hidePending() {
      if (status) status.hidden = true;
      section()?.removeAttribute("aria-busy");
      section()?.classList.remove("is-pending");
    }

    // Show ``fresh`` with the notices of the earlier answers of this run before its own.
    function shown(fresh) {
      const own = [...fresh.querySelectorAll(":scope > .notice")];
      const anchor = fresh.querySelector(".memory-intro");
      for (const note of carried) {
        // Said once already: shown again, not announced again.
        const again = note.cloneNode(true);
        again.removeAttribute("role");
        (own[0] || anchor)?.before(again);
      }
      carried = [...carried, ...own.map((note) => note.cloneNode(true))];
      // Lines whose delete is still queued stay out of sight.
      for (const waiting of queue) {
        if (waiting.kind !== "delete") continue;
        for (const li of fresh.querySelectorAll(".memory-lines > li")) {
          if (li.querySelector(".memory-line")?.textContent === waiting.line) li.hidden = true;
        }
      }
      adoptCsrfToken(fresh);
      return fresh;
    }

    // The section as the server has it now, with ``failure`` said in it.
    async function reload(failure) {
      const current = section();
      if (!current) return;
      const open = current.querySelector("[data-memory-details]")?.open;
      try {
        const url = current.dataset.memorySection + (open ? "?memory=open" : "");
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok) {
          const fresh = swapSection(current, await response.text());
          if (fresh) shown(fresh);
        }
      } catch {
        /* offline: what is shown stays, with the failure said */
      }
      const now = section();
      if (now && failure) {
        const note = notice(failure, "error");
        (now.querySelector(":scope > .notice") || now.querySelector(".memory-intro"))?.after(note);
        carried.push(note.cloneNode(true));
      }
    }

    // A fact the server never took goes back in the box (if the box is free).
    function giveBack(intent) {
      if (!intent.retype) return;
      const box = section()?.querySelector(".add-line input[name=text]");
      if (box && !box.value) box.value = intent.retype;
    }

    async function send(intent) {
      const current = section();
      const form = current && formFor(current, intent);
      if (!form) {
        const gone = notice(texts().lineGone, "warning");
        carried.push(gone);
        current?.querySelector(".memory-intro")?.after(gone.cloneNode(true));
        return;
      }
      const data = intent.data;
      const action = form.getAttribute?.("action") || intent.action;
      const version = form.querySelector?.("input[name=version]")?.value;
      if (version !== undefined && data.has("version")) data.set("version", version);
      const token = current.querySelector("input[name=csrfmiddlewaretoken]")?.value;
      if (token) data.set("csrfmiddlewaretoken", token);
      let response;
      try {
        response = await fetch(action, {
          method: "POST",
          credentials: "same-origin",
          headers: { "X-Whizi-Fragment": "1", "X-CSRFToken": token || "" },
          body: data,
        });
      } catch {
        await reload(texts().offline);
        giveBack(intent);
        return;
      }
      if (!response.ok) {
        let detail = texts().failed;
        try {
          detail = (await response.json()).detail || detail;
        } catch {
          /* an error page: the generic text */
        }
        await reload(detail);
        giveBack(intent);
        return;
      }
      const fresh = swapSection(section(), await response.text());
      // Refused (a secret, a link, a duplicate…): the fact goes back in the box to be fixed.
      const refused = fresh?.querySelector(":scope > .notice.error");
      if (fresh) shown(fresh);
      else await reload(texts().failed);
      if (refused) giveBack(intent);
    }

    async function run() {
      if (running) return;
      carried = [];
      let last = null;
      while (queue.length) {
        const intent = queue.shift();
        running = true;
        showPending(intent.kind);
        await send(intent);
        last = intent;
      }
      running = false;
      hidePending();
      const done = section();
      if (!done || !last) return;
      announce(done, last.kind);
      if (done.querySelector(".notice[role=alert]")) {
        focusNotice(done); // what went wrong, read out once by the focus
        done.querySelector(".notice[role=alert]")?.removeAttribute("role");
      } else if (document.activeElement !== done.querySelector(ADD_BOX)) {
        // Unless the person is typing the next fact, the control that matches what was done;
        // the outcome is said by the page's live region, once.
        controlAfter(done, last)?.focus({ preventScroll: true });
      }
    }

    // The switch keeps the focus, as a switch does; an edited line's Edit; after a delete, the
    // next line's Delete (or the one before, or the add box when none is left); after a clear
    // or an add, the add box.
    function controlAfter(done, intent) {
      const items = [...done.querySelectorAll(".memory-lines > li:not([hidden])")];
      if (intent.kind === "switch") return done.querySelector(".memory-switch [role=switch]");
      if (intent.kind === "delete" && items.length) {
        const next = items[Math.min(intent.place ?? 0, items.length - 1)];
        return next.querySelector("[data-delete-line] button");
      }
      if (intent.kind === "save" && intent.line !== undefined && items.length) {
        const text = intent.data.get("text")?.trim();
        const edited =
          items.find((li) => li.querySelector(".memory-line")?.textContent === text) ||
          items[Math.min(intent.place ?? 0, items.length - 1)];
        return edited.querySelector(".line-edit > summary");
      }
      return done.querySelector(ADD_BOX) || done.querySelector(".memory-switch [role=switch]");
    }

    // What happened, said once through the page's live region (the section is drawn anew):
    // the notice, or for the switch its new state.
    function announce(done, kind) {
      const announcer = document.querySelector("[data-memory-announcer]");
      const notice = done.querySelector(".notice");
      if (!announcer || (kind !== "switch" && notice?.getAttribute("role") === "alert")) return;
      // Said here, not again by the notice drawn with the section.
      done.querySelectorAll(".notice[role=status]").forEach((n) => n.removeAttribute("role"));
      const said =
        kind === "switch"
          ? done.querySelector(".memory-switch .muted")?.textContent
          : notice?.textContent;
      say(said);
    }

    function say(text) {
      const announcer = document.querySelector("[data-memory-announcer]");
      if (!announcer) return;
      announcer.textContent = "";
      announcer.textContent = (text || "").trim();
    }

    document.addEventListener("submit", (event) => {
      const form = event.target.closest("[data-memory-form]");
      if (!form?.closest(SECTION)) return;
      event.preventDefault();
      const intent = intentOf(form);
      // Feels instant: the line goes now (the server's list follows); the button says it is
      // on its way and takes no second click.
      if (intent.kind === "delete") form.closest("li").hidden = true;
      if (form.matches(".add-line")) {
        // Ready for the next fact at once: this one is on its way (the list shows it next).
        intent.retype = form.querySelector("input[name=text]").value;
        form.querySelector("input[name=text]").value = "";
      } else {
        form.querySelectorAll("button[type=submit]").forEach((button) => {
          button.disabled = true;
        });
      }
      form.setAttribute("aria-busy", "true");
      form.closest("dialog")?.close();
      queue.push(intent);
      if (!running) run();
      else showPending(intent.kind);
    });

    // A pass may save facts while this page is open: the section follows the server's list,
    // asked every few seconds while the tab is shown and on coming back to it (an unchanged
    // list answers 204, nothing to draw), and says so once. Never while the person is in the
    // middle of something: an action on its way, a dialog, a line being edited.
    async function refresh() {
      const current = section();
      if (document.visibilityState !== "visible" || !current || running) return;
      if (current.querySelector("dialog[open], .line-edit[open]")) return;
      const url = new URL(current.dataset.memorySection, window.location.href);
      if (current.querySelector("[data-memory-details]")?.open) {
        url.searchParams.set("memory", "open");
      }
      url.searchParams.set("known", current.dataset.memoryState || "");
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.status !== 200 || running || section() !== current) return;
        const fresh = swapSection(current, await response.text());
        if (fresh && fresh.dataset.memoryState !== current.dataset.memoryState) {
          say(texts().updated);
        }
      } catch {
        /* keep what is shown */
      }
    }
    document.addEventListener("visibilitychange", refresh);
    const every = Number(section()?.dataset.memoryPollMs);
    if (every > 0) setInterval(refresh, every);
  }

  // The History page's Restore is a plain post (the page reloads with the result): until
  // then its button says so and takes no second click.
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("[data-memory-restore]");
    if (!form) return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    form.setAttribute("aria-busy", "true");
    const button = form.querySelector("button[type=submit]");
    if (button) button.textContent = form.dataset.pending || button.textContent;
  });

  if (document.querySelector(SECTION)) {
    setupMemory();
    // Back from a restore on the History page: focus on what it says happened, once the
    // browser has scrolled to #memory (which moves the focus to the page itself).
    const landed = document.querySelector(`${SECTION} > .notice`);
    if (landed && window.location.hash === "#memory") {
      const focus = () => requestAnimationFrame(() => focusNotice(landed.parentElement));
      if (document.readyState === "complete") focus();
      else window.addEventListener("load", focus, { once: true });
    }
  }
})();
