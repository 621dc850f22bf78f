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
    // Code and tables scroll sideways on their own: the keyboard scrolls them too.
    root.querySelectorAll("pre, table").forEach((scroller) => {
      scroller.tabIndex = 0;
    });
  }

  // Under every reply: copy it (its Markdown, as the model wrote it).
  function addReplyActions(chat, item) {
    let actions = item.querySelector("[data-reply-actions]");
    if (!actions) {
      actions = document.createElement("div");
      actions.className = "message-actions";
      actions.dataset.replyActions = "";
      (item.querySelector("[data-stopped]") || item.querySelector(".bubble")).after(actions);
    }
    if (!actions.querySelector("[data-copy=reply]")) {
      actions.prepend(copyButton(chat, "reply", chat.dataset.copyReply));
    }
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
      button.dataset.name ||= button.getAttribute("aria-label");
      label.textContent = copied ? chat.dataset.copied : chat.dataset.copyFailed;
      button.setAttribute("aria-label", label.textContent); // the name holds what it shows
      button.classList.toggle("copied", copied);
      status.textContent = label.textContent; // said by screen readers too
      clearTimeout(button.copiedTimer);
      button.copiedTimer = setTimeout(() => {
        label.textContent = chat.dataset.copyText;
        button.setAttribute("aria-label", button.dataset.name);
        button.classList.remove("copied");
        if (status.textContent === chat.dataset.copied) status.textContent = "";
      }, COPIED_SHOWN_MS);
    });
  }

  // Settings → Memory → Import: each prompt's Copy button (hidden without this script).
  function setupPromptCopy(page) {
    page.querySelectorAll("button[data-copy]").forEach((button) => {
      button.hidden = false;
    });
    page.addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-copy]");
      if (!button) return;
      const prompt = document.getElementById(button.dataset.copy);
      const copied = await copyText(prompt?.textContent || "");
      button.focus({ preventScroll: true });
      const status = button.parentElement.querySelector("[data-copy-status]");
      status.textContent = copied ? button.dataset.copied : button.dataset.copyFailed;
      if (!copied) {
        // No clipboard here: the prompt is selected, for the person to copy.
        const range = document.createRange();
        range.selectNodeContents(prompt);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
      }
      clearTimeout(button.copiedTimer);
      if (copied) {
        button.copiedTimer = setTimeout(() => {
          status.textContent = "";
        }, COPIED_SHOWN_MS);
      }
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

  // With a keyboard, Enter sends and Shift+Enter adds a line; on a touch screen (a coarse
  // pointer) the keyboard's Enter adds a line and the Send button sends, as in phone apps.
  const touchFirst = () => window.matchMedia("(pointer: coarse)").matches;

  function submitOnEnter(textarea, form) {
    textarea.setAttribute("enterkeyhint", touchFirst() ? "enter" : "send");
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing && !touchFirst()) {
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
    const stopButton = form.querySelector("[data-stop]");
    const errorBox = form.querySelector("[data-composer-error]");
    const notice = form.querySelector("[data-chat-notice]");
    const editingBar = form.querySelector("[data-editing]");
    const title = chat.querySelector(".chat-title");
    let busy = false;
    let editing = null; // the exchange an edit replaces: { id, items }

    const scrollDown = () => {
      list.scrollTop = list.scrollHeight;
    };
    const showError = (text) => {
      errorBox.textContent = text || "";
      errorBox.hidden = !text;
    };
    const showNotice = (text) => {
      notice.textContent = text || "";
      notice.hidden = !text;
    };
    const messages = () => [...list.querySelectorAll(".message:not(.not-sent):not([hidden])")];

    // While a reply streams, Stop takes the place of Send.
    function setBusy(on) {
      busy = on;
      chat.classList.toggle("is-busy", on);
      // Inert while a reply streams, for the keyboard and screen readers too, not only dimmed.
      list.querySelectorAll(".action-button").forEach((action) => {
        if (action.localName === "button") action.disabled = on;
        else if (on) action.setAttribute("aria-disabled", "true");
        else action.removeAttribute("aria-disabled");
      });
      sendButton.hidden = on;
      stopButton.hidden = !on;
      stopButton.disabled = false;
      stopButton.textContent = stopButton.dataset.label || stopButton.textContent;
    }
    stopButton.dataset.label = stopButton.textContent;
    // A stop on its way: the next reply waits for it, so it never stops that one instead.
    let stopping = null;
    stopButton.addEventListener("click", () => {
      stopButton.disabled = true;
      stopButton.textContent = chat.dataset.stopping;
      stopping = fetch(chat.dataset.stopUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken(form) },
      })
        .catch(() => {
          stopButton.disabled = false; // offline: the reply goes on; Stop can be tried again
          stopButton.textContent = stopButton.dataset.label;
        })
        .finally(() => {
          stopping = null;
        });
    });

    function markStopped(reply) {
      if (reply.querySelector("[data-stopped]")) return;
      const note = document.createElement("p");
      note.className = "message-note stopped";
      note.dataset.stopped = "";
      note.textContent = chat.dataset.stopped;
      reply.querySelector(".bubble").after(note);
    }

    function regenerateForm(label) {
      const template = chat.querySelector("[data-regenerate-template]");
      const made = template.content.firstElementChild.cloneNode(true);
      made.querySelector("button").textContent = label;
      return made;
    }

    // Only the last exchange can be edited (its question) or answered again (its reply, or a
    // Retry where it failed): the controls follow it as the chat goes on.
    function refreshTurnActions() {
      list.querySelectorAll("[data-edit], [data-regenerate], [data-retry-note]").forEach((el) => {
        el.remove();
      });
      const all = messages();
      const question = all.filter((item) => item.classList.contains("user")).pop();
      if (!question?.dataset.messageId) return;
      let actions = question.querySelector("[data-question-actions]");
      if (!actions) {
        actions = document.createElement("div");
        actions.className = "message-actions question-actions";
        actions.dataset.questionActions = "";
        question.querySelector(".bubble").after(actions);
      }
      const edit = document.createElement("a");
      edit.className = "action-button";
      edit.dataset.edit = "";
      edit.href = chat.dataset.editUrl.replace(/0$/, question.dataset.messageId);
      edit.textContent = chat.dataset.editLabel;
      actions.append(edit);
      const reply = all.slice(all.indexOf(question) + 1).pop();
      if (reply && reply.dataset.messageId && !reply.classList.contains("error")) {
        addReplyActions(chat, reply);
        reply.querySelector("[data-reply-actions]").append(
          regenerateForm(chat.dataset.regenerateLabel),
        );
      } else if (reply) {
        reply.append(regenerateForm(chat.dataset.retry));
      } else {
        const unanswered = question.querySelector("[data-unanswered]");
        const retry = regenerateForm(chat.dataset.retry);
        if (unanswered) {
          unanswered.append(" ", retry);
        } else {
          const note = document.createElement("p");
          note.className = "message-note";
          note.dataset.retryNote = "";
          note.append(retry);
          question.append(note);
        }
      }
    }

    // Said once through the page's live region (a reply, "Stopped"): screen readers hear the
    // whole reply when it is done, never each streamed piece.
    const replyStatus = chat.querySelector("[data-reply-status]");
    function announce(text) {
      if (!replyStatus) return;
      replyStatus.textContent = "";
      replyStatus.textContent = text.trim();
    }

    // One reply streamed into ``reply`` from ``url``; ``onStart`` sees the "start" event. The
    // outcome: "done" (stored), "stopped-empty" (stopped before a word: nothing stored),
    // "error" (the model failed, said in the bubble), "broken" (the connection broke
    // mid-reply), or "refused"/"offline" (nothing reached the server's model: the caller
    // says why, with ``detail`` and ``status``).
    async function streamReply(url, params, reply, onStart) {
      const body = reply.querySelector(".bubble");
      body.classList.add("markdown");
      const rendered = streamingReply(chat, body);
      let source = "";
      reply.classList.add("streaming");
      reply.setAttribute("aria-busy", "true");
      setBusy(true);
      const result = { outcome: null, detail: "", status: 0 };
      const fail = (text) => {
        reply.classList.add("error");
        body.classList.remove("markdown");
        body.textContent = text;
        announce(text); // through the page's one reply status: a list item is no alert
      };
      try {
        let response;
        try {
          if (stopping) await stopping;
          response = await fetch(url, {
            method: "POST",
            credentials: "same-origin",
            headers: {
              Accept: "text/event-stream",
              "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
              "X-CSRFToken": csrfToken(form),
            },
            body: params,
          });
        } catch {
          result.outcome = "offline";
          result.detail = chat.dataset.offline;
          return result;
        }
        if (!response.ok) {
          result.outcome = "refused";
          result.status = response.status;
          result.detail =
            response.status >= 500 ? chat.dataset.serverError : chat.dataset.networkError;
          try {
            result.detail = (await response.json()).detail || result.detail;
          } catch {
            /* not JSON (a proxy's error page): keep the generic text */
          }
          return result;
        }
        try {
          for await (const { event, payload } of readEvents(response)) {
            if (event === "start") {
              onStart?.(payload);
            } else if (event === "delta") {
              source += payload.content || "";
              rendered.add(payload);
              scrollDown();
            } else if (event === "done") {
              if (payload.assistant_message_id == null) {
                announce(chat.dataset.stopped);
                result.outcome = "stopped-empty";
              } else {
                reply.dataset.messageId = payload.assistant_message_id;
                body.dataset.source = source;
                rendered.finish(payload.html || "");
                if (payload.stopped) markStopped(reply);
                addReplyActions(chat, reply);
                announce(payload.stopped ? `${body.textContent} ${chat.dataset.stopped}` : body.textContent);
                result.outcome = "done";
              }
            } else if (event === "error") {
              fail(payload.detail || chat.dataset.networkError);
              result.outcome = "error";
            }
          }
        } catch {
          /* the connection broke: said just below */
        }
        if (!result.outcome) {
          fail(chat.dataset.networkError);
          result.outcome = "broken";
        }
        return result;
      } finally {
        reply.classList.remove("streaming");
        reply.removeAttribute("aria-busy");
        setBusy(false);
      }
    }

    // A message the server never got (offline, a 5xx, a 429): it stays, marked, with why and
    // a Retry; its text is back in the box too.
    function markNotSent(mine, content, detail, edited) {
      mine.classList.add("not-sent");
      mine.querySelector("[data-receipt-slot]")?.remove();
      const note = document.createElement("p");
      note.className = "message-note error";
      note.setAttribute("role", "alert");
      note.dataset.notSent = "";
      note.textContent = `${chat.dataset.notSent} ${detail} `;
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "action-button";
      retry.textContent = chat.dataset.retry;
      retry.addEventListener("click", () => {
        if (busy) return;
        mine.remove();
        if (input.value === content) input.value = "";
        send(content, edited); // the same send again: an edit's replaces the same exchange
      });
      note.append(retry);
      mine.append(note);
    }

    function startEditing(question) {
      const items = messages();
      editing = {
        id: question.dataset.messageId,
        items: items.slice(items.indexOf(question)),
      };
      editing.items.forEach((item) => item.classList.add("being-edited"));
      input.value = question.querySelector(".bubble").textContent;
      editingBar.hidden = false;
      autosize(input);
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }

    function stopEditing({ keepText = false } = {}) {
      if (!editing) return;
      editing.items.forEach((item) => item.classList.remove("being-edited"));
      editing = null;
      editingBar.hidden = true;
      if (!keepText) {
        input.value = "";
        autosize(input);
      }
    }

    function nameChat(named) {
      if (!named || !title?.hasAttribute("data-untitled")) return;
      title.textContent = named;
      title.removeAttribute("data-untitled");
      // The tab follows the chat: "New chat · Whizi" becomes "Trip to Lisbon · Whizi".
      document.title = `${named} · ${document.title.split(" · ").pop()}`;
      const current = document.querySelector(".conversation-list [aria-current=page]");
      if (current) current.textContent = title.textContent;
    }

    const draftKey = `whizi:draft:${window.location.pathname}`;
    function keepDraft(content) {
      try {
        sessionStorage.setItem(draftKey, content);
      } catch {
        /* no storage: the text is in the list, marked, to copy */
      }
    }
    function takeDraft() {
      try {
        const draft = sessionStorage.getItem(draftKey);
        sessionStorage.removeItem(draftKey);
        return draft;
      } catch {
        return null;
      }
    }

    async function send(content, edited = editing) {
      if (busy) return;
      showError("");
      showNotice("");
      list.querySelector("[data-chat-empty]")?.remove();
      edited?.items.forEach((item) => {
        item.hidden = true; // replaced once the server takes the edit
      });
      const mine = addBubble(list, "user", chat.dataset.you, content);
      const reply = addBubble(list, "assistant", chat.dataset.assistant, "");
      input.value = "";
      autosize(input);
      scrollDown();
      const params = new URLSearchParams({ content });
      if (edited) params.set("replaces", edited.id);
      let named = "";
      const result = await streamReply(form.action, params, reply, (payload) => {
        if (payload.user_message) mine.dataset.messageId = payload.user_message.id;
        named = payload.title || ""; // the server names the chat (chat/titles.py)
        if (edited && payload.replaced != null) {
          if (edited === editing) stopEditing({ keepText: true });
          edited.items.forEach((item) => item.remove());
        }
        if (payload.memory_kept) showNotice(payload.memory_kept);
      });
      if (result.outcome === "offline" || result.outcome === "refused") {
        reply.remove();
        edited?.items.forEach((item) => {
          item.hidden = false;
        });
        if (!input.value) input.value = content;
        autosize(input);
        const transient =
          result.outcome === "offline" || result.status >= 500 || result.status === 429;
        if (transient) {
          markNotSent(mine, content, result.detail, edited);
        } else if (edited && result.status === 404) {
          // The message this edit replaces is gone already (an earlier try got through, its
          // answer lost on the way; or another tab): the page is drawn again as the server has
          // it, the text kept in the box.
          keepDraft(content);
          window.location.reload();
          return;
        } else {
          // Refused as it is (empty, too long, an edit of a message no longer last): nothing
          // was stored, the text is back in the box with why.
          mine.remove();
          showError(result.detail);
        }
      } else if (result.outcome === "stopped-empty") {
        reply.remove();
      }
      if (mine.dataset.messageId && result.outcome !== "refused") {
        watchReceipts(chat, list, mine.dataset.messageId);
      }
      nameChat(named);
      refreshTurnActions();
      input.focus();
      scrollDown();
    }

    // Answer the last message again: the new reply takes the old one's place once stored; if
    // it fails, the old reply stays.
    async function regenerate(regenerateForm) {
      if (busy) return;
      stopEditing({ keepText: true }); // the exchange it would replace is about to change
      showError("");
      showNotice("");
      const all = messages();
      const question = all.filter((item) => item.classList.contains("user")).pop();
      if (!question) return;
      const previous = all.slice(all.indexOf(question) + 1);
      const hadReply = previous.some(
        (item) => item.dataset.messageId && !item.classList.contains("error"),
      );
      previous.forEach((item) => {
        item.hidden = true;
      });
      question.querySelector("[data-unanswered]")?.setAttribute("hidden", "");
      input.focus(); // the button pressed is gone with the reply it was under
      const reply = addBubble(list, "assistant", chat.dataset.assistant, "");
      scrollDown();
      const result = await streamReply(regenerateForm.action, new URLSearchParams(), reply);
      const failed = result.outcome !== "done";
      if (!failed) {
        previous.forEach((item) => item.remove());
        question.querySelector("[data-unanswered]")?.remove();
      } else if (hadReply || result.outcome === "stopped-empty") {
        reply.remove(); // what was there stays
        previous.forEach((item) => {
          item.hidden = false;
        });
        question.querySelector("[data-unanswered]")?.removeAttribute("hidden");
        if (result.outcome !== "stopped-empty") {
          showError(result.detail || chat.dataset.regenerateFailed);
        }
      } else {
        previous.forEach((item) => item.remove());
        question.querySelector("[data-unanswered]")?.remove();
        if (result.outcome === "offline" || result.outcome === "refused") {
          reply.classList.add("error");
          reply.querySelector(".bubble").classList.remove("markdown");
          reply.querySelector(".bubble").textContent = result.detail;
        }
      }
      refreshTurnActions();
      input.focus();
      scrollDown();
    }

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!busy) send(input.value);
    });
    submitOnEnter(input, form);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && editing) stopEditing();
    });
    editingBar.querySelector("[data-cancel-edit]").addEventListener("click", () => {
      stopEditing();
      input.focus();
    });
    chat.addEventListener("click", (event) => {
      const link = event.target.closest("[data-edit]");
      if (!link) return;
      event.preventDefault();
      if (!busy) startEditing(link.closest(".message"));
    });
    chat.addEventListener("submit", (event) => {
      const again = event.target.closest("[data-regenerate]");
      if (!again) return;
      event.preventDefault();
      regenerate(again);
    });
    list.querySelectorAll(".message.assistant").forEach((item) => {
      decorateCode(chat, item);
      if (item.querySelector(".bubble[data-source]")) addReplyActions(chat, item);
    });
    refreshTurnActions();
    setupCopy(chat);
    // Opened at one message (a memory line's source): that message, else the newest.
    const target = window.location.hash && document.getElementById(window.location.hash.slice(1));
    if (target && list.contains(target)) target.scrollIntoView({ block: "center" });
    else scrollDown();
    const draft = takeDraft();
    if (draft && !input.value) {
      input.value = draft;
      autosize(input);
    }

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

  // The receipt as the server has it after an undo, by taking away, never adding: its slot is
  // a live region, and only "Undone." is to be said.
  function settleReceipt(receipt, fresh) {
    const which = (form) => form.querySelector("input[name=item]")?.value ?? "all";
    const kept = new Set([...fresh.querySelectorAll("[data-receipt-undo]")].map(which));
    receipt.querySelectorAll("[data-receipt-undo]").forEach((form) => {
      if (!kept.has(which(form))) form.remove();
    });
    const items = fresh.querySelectorAll(".receipt-item");
    receipt.querySelectorAll(".receipt-item").forEach((item, at) => {
      item.className = items[at]?.className || item.className;
    });
    receipt.className = fresh.className;
  }

  // Undo (the whole change) or one line's undo; then what still stands keeps its own undo, and
  // what happened is said on the receipt and focused.
  function setupReceiptUndo(chat) {
    chat.addEventListener("submit", async (event) => {
      const form = event.target.closest("[data-receipt-undo]");
      if (!form) return;
      event.preventDefault();
      const receipt = form.closest("[data-receipt]");
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
          const { receipt: html } = await response.json();
          const fresh = html && fragmentOf(html.trim()).querySelector("[data-receipt]");
          if (fresh) settleReceipt(receipt, fresh);
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
      const status = receipt.querySelector("[data-receipt-status]");
      status.textContent = text;
      if (settled) {
        if (form.isConnected) form.remove();
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
      const body = new FormData(picker); // before the select is disabled, which drops it
      select.disabled = true; // one switch at a time
      picker.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(picker.action, {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRFToken": csrfToken(picker) },
          body,
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
      } finally {
        select.disabled = false;
        select.focus(); // disabling it took the focus away
        picker.removeAttribute("aria-busy");
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

  // ---- Confirmation dialogs (clear memory, delete a guest's data) -------------------------
  // The opener is a link to the confirmation page, which is what a page without JavaScript (or
  // a browser without <dialog>) gets instead.

  function setupDialogs() {
    // An opener is a link to the confirmation page (all a page without JavaScript needs) in
    // the role of a button, so Space opens it too, as a button's would; also in a section
    // drawn again after a change.
    document.addEventListener("keydown", (event) => {
      const opener = event.key === " " && event.target.closest?.("[data-open-dialog]");
      if (opener) {
        event.preventDefault();
        opener.click();
      }
    });
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

  // ---- A form sent back with errors: the first takes the focus, so it is said at once ----
  // A form's own error, else the first field in error (its description is the error). After
  // the load, as scrolling to a #fragment moves the focus to the page.

  function focusFirstError() {
    const first = document.querySelector(
      "form .notice.error, form [aria-invalid=true], .field.has-error :is(input, select, textarea)",
    );
    if (!first) return;
    if (!first.matches("input, select, textarea")) first.setAttribute("tabindex", "-1");
    first.focus();
  }
  if (document.readyState === "complete") focusFirstError();
  else window.addEventListener("load", () => requestAnimationFrame(focusFirstError), { once: true });

  document.querySelectorAll("[data-chat]").forEach(setupChat);
  document.querySelectorAll(".memory-import").forEach(setupPromptCopy);
  document.querySelectorAll("[data-new-chat]").forEach(setupNewChat);
  document.querySelectorAll("[data-chats-menu]").forEach(setupChatsMenu);
  setupDialogs();
})();
