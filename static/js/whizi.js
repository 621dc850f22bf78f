// Whizi web pages: streamed chat replies in Markdown with copy buttons, an instant Memory section,
// confirmation dialogs.
// Plain JavaScript, no build step, no external assets. Every form here also works without this
// file: the script only makes the same requests without reloading the page.
(() => {
  "use strict";

  const PENDING_KEY = "whizi:pending-message";
  // A first message carried from the new-chat page to its conversation is used only this soon
  // after, so a failed start never sends it into some later conversation.
  const PENDING_MAX_AGE_MS = 30_000;

  const csrfToken = (form) =>
    form.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";

  // Buttons that only matter without JavaScript (the picker's "Switch", the language "Save").
  document.querySelectorAll("[data-js-hide]").forEach((el) => {
    el.hidden = true;
  });

  // ---- Server-sent events over fetch (EventSource can only GET) --------------------------

  function parseEvent(raw) {
    let event = "message";
    const data = [];
    for (const line of raw.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    let payload = {};
    try {
      payload = data.length ? JSON.parse(data.join("\n")) : {};
    } catch {
      payload = {};
    }
    return { event, payload };
  }

  async function* readEvents(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const raw = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (raw.trim()) yield parseEvent(raw);
      }
    }
    if (buffer.trim()) yield parseEvent(buffer);
  }

  // ---- Replies: Markdown the server rendered and sanitised, and copy buttons -------------
  // A reply's HTML only ever comes from the server (chat.markdown: markdown-it-py with raw HTML
  // off, then the nh3 sanitiser); the reply's own text is only ever set as text.

  function fragmentOf(serverHtml) {
    const template = document.createElement("template");
    template.innerHTML = serverHtml;
    return template.content;
  }

  const SVG = "http://www.w3.org/2000/svg";

  // Two sheets (copy) and a tick (copied); CSS shows the one the button's state calls for.
  function copyIcon() {
    const icon = document.createElementNS(SVG, "svg");
    icon.setAttribute("viewBox", "0 0 16 16");
    icon.setAttribute("width", "14");
    icon.setAttribute("height", "14");
    icon.setAttribute("aria-hidden", "true");
    icon.classList.add("copy-icon");
    for (const [shape, d] of [
      ["sheets", "M5.5 5.5h7.5v8.5h-7.5z M3 10.5V2.5h7.5"],
      ["tick", "M3 8.5l3.2 3.2L13 4.8"],
    ]) {
      const path = document.createElementNS(SVG, "path");
      path.setAttribute("d", d);
      path.classList.add(`copy-icon-${shape}`);
      icon.append(path);
    }
    return icon;
  }

  function copyButton(chat, kind, label) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-button";
    button.dataset.copy = kind;
    button.setAttribute("aria-label", label);
    button.append(copyIcon());
    const text = document.createElement("span");
    text.className = "copy-label";
    text.textContent = chat.dataset.copyText;
    button.append(text);
    return button;
  }

  // Each code block gets a bar with its language and its own copy button.
  function decorateCode(chat, root) {
    root.querySelectorAll("pre").forEach((pre) => {
      if (pre.parentElement?.classList.contains("code-block")) return;
      const block = document.createElement("div");
      block.className = "code-block";
      const bar = document.createElement("div");
      bar.className = "code-bar";
      const language = document.createElement("span");
      language.className = "code-language";
      const named = /\blanguage-(\S+)/.exec(pre.querySelector("code")?.className || "");
      language.textContent = named ? named[1] : "";
      bar.append(language, copyButton(chat, "code", chat.dataset.copyCode));
      pre.replaceWith(block);
      block.append(bar, pre);
    });
  }

  // Under every reply: copy it (its Markdown, as the model wrote it).
  function addReplyActions(chat, item) {
    if (item.querySelector("[data-reply-actions]")) return;
    const actions = document.createElement("div");
    actions.className = "message-actions";
    actions.dataset.replyActions = "";
    actions.append(copyButton(chat, "reply", chat.dataset.copyReply));
    item.querySelector(".bubble").after(actions);
  }

  function lastLeaf(element) {
    let leaf = element;
    while (leaf.lastElementChild && !["BR", "HR"].includes(leaf.lastElementChild.tagName)) {
      leaf = leaf.lastElementChild;
    }
    return leaf;
  }

  // A streaming reply: the blocks the server settled stay, its last block is replaced at each
  // render, and text that came since the last render waits at the end of it, as text (so an
  // open code block grows as code).
  function streamingReply(chat, body) {
    let settled = null;
    let live = null;
    let pending = null;
    return {
      add(payload) {
        if (typeof payload.live === "string") {
          if (!settled) {
            settled = document.createElement("div");
            live = document.createElement("div");
            settled.className = live.className = "stream-part";
            body.replaceChildren(settled, live);
          }
          settled.append(fragmentOf(payload.settled || ""));
          live.replaceChildren(fragmentOf(payload.live));
          decorateCode(chat, body);
          pending = null;
        } else if (payload.content) {
          if (!pending) {
            pending = document.createTextNode("");
            lastLeaf(live || body).append(pending);
          }
          pending.data += payload.content;
        }
      },
      finish(serverHtml) {
        body.replaceChildren(fragmentOf(serverHtml));
        decorateCode(chat, body);
      },
    };
  }

  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      /* no Clipboard API (a page served over plain http) or no permission: the old way */
    }
    const buffer = document.createElement("textarea");
    buffer.className = "copy-buffer";
    buffer.value = text;
    buffer.setAttribute("readonly", "");
    document.body.append(buffer);
    buffer.select();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
    buffer.remove();
    return copied;
  }

  const COPIED_SHOWN_MS = 2_000;

  function setupCopy(chat) {
    const status = chat.querySelector("[data-copy-status]");
    chat.addEventListener("click", async (event) => {
      const button = event.target.closest("[data-copy]");
      if (!button) return;
      const text =
        button.dataset.copy === "code"
          ? button.closest(".code-block").querySelector("code").textContent
          : button.closest(".message").querySelector(".bubble").dataset.source;
      const copied = await copyText(text || "");
      button.focus({ preventScroll: true }); // the old way's selection took it
      const label = button.querySelector(".copy-label");
      label.textContent = copied ? chat.dataset.copied : chat.dataset.copyFailed;
      button.classList.toggle("copied", copied);
      status.textContent = label.textContent; // said by screen readers too
      clearTimeout(button.copiedTimer);
      button.copiedTimer = setTimeout(() => {
        label.textContent = chat.dataset.copyText;
        button.classList.remove("copied");
        if (status.textContent === chat.dataset.copied) status.textContent = "";
      }, COPIED_SHOWN_MS);
    });
  }

  // ---- The conversation page -------------------------------------------------------------

  function addBubble(list, role, label, text) {
    const item = document.createElement("li");
    item.className = `message ${role}`;
    const who = document.createElement("span");
    who.className = "message-role";
    who.textContent = label;
    const body = document.createElement("div");
    body.className = "bubble";
    body.textContent = text;
    item.append(who, body);
    if (role === "user") {
      // Where "Memory updated" appears once a pass has read this turn (announced politely).
      const slot = document.createElement("div");
      slot.className = "receipt-slot";
      slot.dataset.receiptSlot = "";
      slot.setAttribute("aria-live", "polite");
      item.append(slot);
    }
    list.append(item);
    return item;
  }

  function autosize(textarea) {
    textarea.style.height = "auto";
    textarea.style.height = `${Math.min(textarea.scrollHeight, 240)}px`;
  }

  function submitOnEnter(textarea, form) {
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    textarea.addEventListener("input", () => autosize(textarea));
  }

  function setupChat(chat) {
    const list = chat.querySelector("[data-messages]");
    const form = chat.querySelector("[data-composer]");
    const input = form.querySelector("textarea");
    const sendButton = form.querySelector("button[type=submit]");
    const errorBox = form.querySelector("[data-composer-error]");
    const title = chat.querySelector(".chat-title");
    let busy = false;

    const scrollDown = () => {
      list.scrollTop = list.scrollHeight;
    };
    const showError = (text) => {
      errorBox.textContent = text || "";
      errorBox.hidden = !text;
    };

    async function send(content) {
      if (busy) return;
      busy = true;
      sendButton.disabled = true;
      showError("");
      list.querySelector("[data-chat-empty]")?.remove();
      const mine = addBubble(list, "user", chat.dataset.you, content);
      const reply = addBubble(list, "assistant", chat.dataset.assistant, "");
      const body = reply.querySelector(".bubble");
      body.classList.add("markdown");
      const rendered = streamingReply(chat, body);
      let source = "";
      reply.classList.add("streaming");
      reply.setAttribute("aria-busy", "true");
      input.value = "";
      autosize(input);
      scrollDown();
      let finished = false;
      let named = "";
      try {
        const response = await fetch(form.action, {
          method: "POST",
          credentials: "same-origin",
          headers: {
            Accept: "text/event-stream",
            "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
            "X-CSRFToken": csrfToken(form),
          },
          body: new URLSearchParams({ content }),
        });
        if (!response.ok) {
          // Nothing was stored (e.g. an empty message): put the text back, show why.
          let detail = chat.dataset.networkError;
          try {
            detail = (await response.json()).detail || detail;
          } catch {
            /* not JSON: keep the generic text */
          }
          mine.remove();
          reply.remove();
          input.value = content;
          showError(detail);
          finished = true;
          return;
        }
        for await (const { event, payload } of readEvents(response)) {
          if (event === "start" && payload.user_message) {
            mine.dataset.messageId = payload.user_message.id;
            named = payload.title || ""; // the server names the chat (chat/titles.py)
          } else if (event === "delta") {
            source += payload.content || "";
            rendered.add(payload);
            scrollDown();
          } else if (event === "done") {
            reply.dataset.messageId = payload.assistant_message_id;
            body.dataset.source = source;
            rendered.finish(payload.html || "");
            addReplyActions(chat, reply);
            finished = true;
            watchReceipts(chat, list, mine.dataset.messageId);
          } else if (event === "error") {
            // The person's message is kept; only the reply failed.
            reply.classList.add("error");
            reply.setAttribute("role", "alert");
            body.classList.remove("markdown");
            body.textContent = payload.detail || chat.dataset.networkError;
            finished = true;
          }
        }
      } catch {
        /* the connection broke: reported just below */
      } finally {
        if (!finished) {
          reply.classList.add("error");
          body.classList.remove("markdown");
          body.textContent = chat.dataset.networkError;
        }
        reply.classList.remove("streaming");
        reply.removeAttribute("aria-busy");
        if (named && title?.hasAttribute("data-untitled")) {
          title.textContent = named;
          title.removeAttribute("data-untitled");
          const current = document.querySelector(".conversation-list [aria-current=page]");
          if (current) current.textContent = title.textContent;
        }
        busy = false;
        sendButton.disabled = false;
        input.focus();
        scrollDown();
      }
    }

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send(input.value);
    });
    submitOnEnter(input, form);
    list.querySelectorAll(".message.assistant").forEach((item) => {
      decorateCode(chat, item);
      if (item.querySelector(".bubble[data-source]")) addReplyActions(chat, item);
    });
    setupCopy(chat);
    scrollDown();

    // The first message typed on the new-chat page, carried over its redirect.
    const pending = takePending();
    if (pending) send(pending);

    setupModelPicker(chat);
    setupReceiptUndo(chat);
  }

  // ---- "Memory updated" under the turn whose pass changed the list -----------------------
  // A pass runs in the background after the reply: the page asks a few times, ever less often,
  // while the server says one is owed for the turn just sent, and stops after a bound.

  const RECEIPT_FIRST_POLL_MS = 400;
  const RECEIPT_MAX_POLL_MS = 3_000;
  const RECEIPT_WATCH_MS = 45_000;

  function showReceipts(list, receipts) {
    for (const [id, html] of Object.entries(receipts || {})) {
      const slot = list.querySelector(`.message[data-message-id="${id}"] [data-receipt-slot]`);
      if (!slot || slot.querySelector("[data-receipt]")) continue;
      const template = document.createElement("template");
      template.innerHTML = html.trim();
      slot.replaceChildren(template.content);
    }
  }

  function watchReceipts(chat, list, afterId) {
    if (!afterId || !chat.dataset.receipts) return;
    const started = Date.now();
    let delay = RECEIPT_FIRST_POLL_MS;
    const poll = async () => {
      let waiting = true; // a failed poll is tried again, within the bound
      try {
        const url = `${chat.dataset.receipts}?after=${encodeURIComponent(afterId)}`;
        const response = await fetch(url, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        });
        if (response.ok) {
          const data = await response.json();
          showReceipts(list, data.receipts);
          waiting = Boolean(data.waiting);
        }
      } catch {
        /* offline for a moment: ask again */
      }
      if (waiting && Date.now() - started < RECEIPT_WATCH_MS) {
        setTimeout(poll, delay);
        delay = Math.min(delay * 1.5, RECEIPT_MAX_POLL_MS);
      }
    };
    setTimeout(poll, delay);
  }

  function setupReceiptUndo(chat) {
    chat.addEventListener("submit", async (event) => {
      const form = event.target.closest("[data-receipt-undo]");
      if (!form) return;
      event.preventDefault();
      const status = form.closest("[data-receipt]").querySelector("[data-receipt-status]");
      const button = form.querySelector("button");
      button.disabled = true;
      let text = chat.dataset.networkError;
      let settled = false;
      try {
        const response = await fetch(form.action, {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRFToken": csrfToken(form) },
          body: new FormData(form),
        });
        if (response.ok) {
          text = chat.dataset.receiptUndone;
          settled = true;
        } else if (response.status === 412) {
          // The list changed since this receipt: Settings → Memory (linked beside) has it.
          text = chat.dataset.receiptStale;
          settled = true;
        } else {
          try {
            text = (await response.json()).detail || text;
          } catch {
            /* not JSON: keep the generic text */
          }
        }
      } catch {
        /* the connection broke: said below */
      }
      status.textContent = text;
      if (settled) {
        form.remove();
        status.setAttribute("tabindex", "-1");
        status.focus({ preventScroll: true });
      } else {
        button.disabled = false;
      }
    });
  }

  function setupModelPicker(chat) {
    const picker = chat.querySelector("[data-model-picker]");
    if (!picker) return;
    const select = picker.querySelector("select");
    const status = picker.querySelector("[data-model-status]");
    let current = select.value;
    select.addEventListener("change", async () => {
      status.textContent = "";
      // Picking the model already in use switches nothing, so nothing is sent or claimed.
      if (select.value === current) return;
      try {
        const response = await fetch(picker.action, {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRFToken": csrfToken(picker) },
          body: new FormData(picker),
        });
        const data = await response.json();
        if (!response.ok) throw new Error(data.detail || "");
        current = data.model;
        status.textContent = chat.dataset.switched;
        setTimeout(() => {
          status.textContent = "";
        }, 2500);
      } catch (error) {
        select.value = current;
        status.textContent = error.message || chat.dataset.networkError;
      }
    });
  }

  function takePending() {
    let item = null;
    try {
      item = JSON.parse(sessionStorage.getItem(PENDING_KEY) || "null");
      sessionStorage.removeItem(PENDING_KEY);
    } catch {
      return null;
    }
    if (!item || Date.now() - item.at > PENDING_MAX_AGE_MS) return null;
    return item.content;
  }

  function setupNewChat(form) {
    const input = form.querySelector("textarea");
    // Back on this page (the start failed): the typed message is not lost.
    const pending = takePending();
    if (pending && !input.value) input.value = pending;
    submitOnEnter(input, form);
    form.addEventListener("submit", () => {
      // The conversation is created by the plain form post; its page then streams the first
      // message, so the reply appears live instead of after a full-page wait.
      const content = input.value;
      if (!content.trim()) return;
      try {
        sessionStorage.setItem(PENDING_KEY, JSON.stringify({ content, at: Date.now() }));
        input.value = "";
      } catch {
        /* storage unavailable: the form posts the message itself */
      }
    });
  }

  // ---- The Memory section of Settings ----------------------------------------------------

  function swapSection(section, html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.querySelector("[data-memory-section]");
    if (!fresh) return null;
    section.replaceWith(fresh);
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

  function setupMemory() {
    document.addEventListener("submit", async (event) => {
      const form = event.target.closest("[data-memory-form]");
      const section = form?.closest("[data-memory-section]");
      if (!section) return;
      event.preventDefault();
      if (form.matches("[data-delete-line]")) {
        // Feels instant: the line goes now; the server's fresh list follows.
        form.closest("li").hidden = true;
      }
      try {
        const response = await fetch(form.action, {
          method: "POST",
          credentials: "same-origin",
          headers: { "X-Whizi-Fragment": "1", "X-CSRFToken": csrfToken(form) },
          body: new FormData(form),
        });
        if (!response.ok) throw new Error(String(response.status));
        const html = await response.text();
        form.closest("dialog")?.close();
        const fresh = swapSection(section, html);
        if (fresh) {
          adoptCsrfToken(fresh);
          focusNotice(fresh);
        }
      } catch {
        form.submit(); // the plain post still works
      }
    });

    // Back to this tab: a pass may have saved new facts meanwhile.
    document.addEventListener("visibilitychange", async () => {
      const section = document.querySelector("[data-memory-section]");
      if (document.visibilityState !== "visible" || !section) return;
      if (section.querySelector("dialog[open]")) return;
      const open = section.querySelector("[data-memory-details]")?.open;
      try {
        const url = section.dataset.memorySection + (open ? "?memory=open" : "");
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok) swapSection(section, await response.text());
      } catch {
        /* keep what is shown */
      }
    });
  }

  // ---- Confirmation dialogs (clear memory, delete a guest's data) -------------------------
  // The opener is a link to the confirmation page, which is what a page without JavaScript (or
  // a browser without <dialog>) gets instead.

  function setupDialogs() {
    document.addEventListener("click", (event) => {
      const opener = event.target.closest("[data-open-dialog]");
      if (opener) {
        const dialog = document.getElementById(opener.dataset.openDialog);
        if (dialog && typeof dialog.showModal === "function") {
          event.preventDefault();
          dialog.showModal();
        }
        return;
      }
      event.target.closest("[data-close-dialog]")?.closest("dialog")?.close();
    });
  }

  // ---- The phone's "Chats" menu: closes on a click elsewhere or Escape --------------------

  function setupChatsMenu(menu) {
    document.addEventListener("click", (event) => {
      if (menu.open && !menu.contains(event.target)) {
        const list = menu.parentElement.querySelector(".conversation-panel");
        if (!list?.contains(event.target)) menu.open = false;
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
  }

  // ---- Settings: the language applies as soon as it is picked ----------------------------

  document.querySelectorAll("[data-language-form] select").forEach((select) => {
    select.addEventListener("change", () => select.form.submit());
  });

  document.querySelectorAll("[data-chat]").forEach(setupChat);
  document.querySelectorAll("[data-new-chat]").forEach(setupNewChat);
  document.querySelectorAll("[data-chats-menu]").forEach(setupChatsMenu);
  setupMemory();
  setupDialogs();
})();
