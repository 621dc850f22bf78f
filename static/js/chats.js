// The sidebar's chats: a search over titles and messages, and each chat's menu (rename in a
// dialog, delete after a confirmation). Plain JavaScript, no build step. Without this file the
// search box submits to a results page and the menu's links open the same forms as pages.
(() => {
  "use strict";

  const SEARCH_DELAY_MS = 150;
  const panel = document.querySelector(".conversation-panel");
  if (!panel) return;

  const csrfToken = (form) =>
    form.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";

  // The list the server drew; the open chat stays marked whatever list replaces it.
  function markCurrent(list) {
    list.querySelectorAll("a.conversation-link").forEach((link) => {
      const path = new URL(link.getAttribute("href"), window.location.href).pathname;
      if (path === window.location.pathname) {
        link.setAttribute("aria-current", "page");
      } else {
        link.removeAttribute("aria-current");
      }
    });
  }

  // ---- Search ------------------------------------------------------------------------------

  function setupSearch(form) {
    const input = form.querySelector("input[name=q]");
    const status = form.querySelector("[data-chat-search-status]");
    let asked = 0; // only the newest search's answer is shown, whatever order they arrive in
    let timer = null;

    async function search() {
      const mine = ++asked;
      const url = `${form.action}?${new URLSearchParams({ q: input.value })}`;
      try {
        const response = await fetch(url, {
          credentials: "same-origin",
          headers: { "X-Whizi-Fragment": "1" },
        });
        if (!response.ok) throw new Error(String(response.status));
        const template = document.createElement("template");
        template.innerHTML = (await response.text()).trim();
        const fresh = template.content.querySelector("[data-conversation-list]");
        if (mine !== asked || !fresh) return;
        markCurrent(fresh);
        panel.querySelector("[data-conversation-list]").replaceWith(fresh);
        status.textContent = fresh.dataset.found || "";
      } catch {
        if (mine === asked) status.textContent = form.dataset.searchFailed || "";
      }
    }

    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(search, SEARCH_DELAY_MS);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      search();
    });
  }

  // ---- Each chat's menu: rename and delete in dialogs --------------------------------------

  function closeMenus(except) {
    panel.querySelectorAll("details[data-chat-actions][open]").forEach((menu) => {
      if (menu !== except) menu.open = false;
    });
  }

  function showError(dialog, text) {
    const error = dialog.querySelector("[data-dialog-error]");
    error.textContent = text;
    error.hidden = !text;
  }

  function openDialog(dialog, link) {
    const item = link.closest("[data-conversation-item]");
    const form = dialog.querySelector("form");
    form.action = link.href;
    showError(dialog, "");
    dialog.chatItem = item;
    item.querySelector("details").open = false;
    dialog.showModal();
  }

  function openRename(dialog, link) {
    const input = dialog.querySelector("input[name=title]");
    input.value = link.dataset.title || "";
    openDialog(dialog, link);
    input.focus();
    input.select();
  }

  function openDelete(dialog, link) {
    dialog.querySelector("[data-dialog-subject]").textContent = link.dataset.title || "";
    openDialog(dialog, link);
  }

  async function post(form) {
    const response = await fetch(form.action, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken(form) },
      body: new FormData(form),
    });
    const body = await response.json().catch(() => ({}));
    return { ok: response.ok, body };
  }

  function renamed(item, title) {
    const link = item.querySelector("a.conversation-link");
    link.textContent = title;
    item.querySelectorAll("[data-title]").forEach((el) => {
      el.dataset.title = title;
    });
    const options = item.querySelector("summary");
    const template = document.querySelector("[data-rename-chat-dialog]").dataset.optionsLabel;
    if (template) options.setAttribute("aria-label", template.replace("%s", title));
    if (link.getAttribute("aria-current") === "page") {
      const heading = document.querySelector(".chat-title");
      if (heading) {
        heading.textContent = title;
        heading.removeAttribute("data-untitled");
      }
      const cut = document.title.indexOf(" · ");
      document.title = title + (cut >= 0 ? document.title.slice(cut) : "");
    }
  }

  function deleted(item) {
    const link = item.querySelector("a.conversation-link");
    if (link.getAttribute("aria-current") === "page") {
      window.location.assign("/"); // the chat on screen is gone
      return;
    }
    const list = item.parentElement;
    item.remove();
    if (!list.querySelector("[data-conversation-item]")) {
      const empty = document.createElement("li");
      empty.className = "muted";
      empty.textContent = list.dataset.empty || "";
      list.append(empty);
    }
    panel.querySelector("[data-chat-search] input")?.focus();
  }

  function setupDialog(dialog, onDone) {
    const form = dialog.querySelector("form");
    const button = form.querySelector("button[type=submit]");
    const label = button.textContent;
    // While the answer is on its way the button says so and takes no second click.
    const pending = (on) => {
      button.disabled = on;
      button.textContent = on ? button.dataset.pending || label : label;
      form.setAttribute("aria-busy", String(on));
    };
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (button.disabled) return;
      const item = dialog.chatItem;
      let answer;
      pending(true);
      try {
        answer = await post(form);
      } catch {
        form.submit(); // the plain post still works
        return;
      } finally {
        pending(false);
      }
      if (!answer.ok) {
        showError(dialog, answer.body.detail || dialog.dataset.failed || "");
        return;
      }
      dialog.close();
      onDone(item, answer.body);
    });
    // Back where the person was: the chat's menu button.
    dialog.addEventListener("close", () => {
      const summary = dialog.chatItem?.querySelector("summary");
      if (summary?.isConnected) summary.focus();
    });
  }

  const renameDialog = document.querySelector("[data-rename-chat-dialog]");
  const deleteDialog = document.querySelector("[data-delete-chat-dialog]");
  const dialogs = typeof renameDialog?.showModal === "function" && deleteDialog;

  if (dialogs) {
    setupDialog(renameDialog, (item, body) => renamed(item, body.title));
    setupDialog(deleteDialog, (item) => deleted(item));
  }

  panel.addEventListener("click", (event) => {
    const link = event.target.closest("[data-rename-chat], [data-delete-chat]");
    if (!link || !dialogs) return;
    event.preventDefault();
    if (link.matches("[data-rename-chat]")) openRename(renameDialog, link);
    else openDelete(deleteDialog, link);
  });

  // One chat's menu open at a time; a click elsewhere or Escape closes it.
  panel.addEventListener("toggle", (event) => {
    if (event.target.matches?.("details[data-chat-actions]") && event.target.open) {
      closeMenus(event.target);
    }
  }, true);
  document.addEventListener("click", (event) => {
    if (!event.target.closest("details[data-chat-actions]")) closeMenus(null);
  });
  document.addEventListener("keydown", (event) => {
    const menu = event.target.closest?.("details[data-chat-actions][open]");
    if (event.key === "Escape" && menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });

  document.querySelectorAll("[data-chat-search]").forEach(setupSearch);
})();
