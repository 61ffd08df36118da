// Saessak's only script: small progressive touches. Every page works without it.
"use strict";

const lang = document.documentElement.lang;
const say = (ko, en) => (lang === "ko" ? ko : en);
const assetVersion = document.currentScript ? new URL(document.currentScript.src).searchParams.get("v") : "0";

// Another member signed in on this device (the last one's session ran out, or was never ended): what the last one
// kept — pages, thumbnails, unsent drafts — goes before this one sees anything. The same member signing in again
// keeps it all (the sign-in answer empties only the HTTP cache).
const member = (document.querySelector("meta[name=saessak-member]") || {}).content;
const switched = (async () => {
  if (!member) return;
  const last = localStorage.getItem("saessak-member");
  localStorage.setItem("saessak-member", member);
  if (!last || last === member) return;
  if ("caches" in window) for (const name of await caches.keys()) if (!name.startsWith("saessak-shell-")) await caches.delete(name);
  if ("indexedDB" in window) await new Promise((done) => { const request = indexedDB.deleteDatabase("saessak-outbox"); request.onsuccess = request.onerror = request.onblocked = done; });
})();

// The editor is part of the installed app: kept with the pages the service worker serves offline when a member who
// writes signs in (and again after an hour), so that 쓰기 opens without a network even if the editor was never
// opened online on this device. Signing out empties it with everything else.
(async () => {
  await switched;
  if (!member || !("caches" in window) || !navigator.onLine || !document.querySelector("a.write[href='/entries/new']")) return;
  const editor = new URL("/entries/new", location.href).href;
  const pages = await caches.open("saessak-pages");
  if (Date.now() - Number(localStorage.getItem("saessak-editor-kept") || 0) < 3600e3 && await pages.match(editor)) return;
  try {
    const response = await fetch(editor, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok || response.redirected || !(response.headers.get("content-type") || "").startsWith("text/html")) return;
    await pages.put(editor, response);
    localStorage.setItem("saessak-editor-kept", String(Date.now()));
  } catch (error) { /* offline after all: the next page tries again */ }
})();

// An import of photos under way (가져오기): the page is asked again every few seconds until it shows the report.
if (document.querySelector("[data-import-progress=running]")) setTimeout(() => location.reload(), 3000);

// The service worker keeps the app shell and recently viewed pages for reading offline (sw.js says what it keeps).
// Share-link and invitation pages register none: their readers are not members.
if ("serviceWorker" in navigator && !/^\/(s|invite)\//.test(location.pathname)) {
  navigator.serviceWorker.register(`/sw.js?v=${assetVersion}`).catch(() => { /* not a secure context: online only */ });
}

// Offline, a page comes from this device's copy: say so, and look again when the network returns.
function watchConnection(note) {
  const check = async () => {
    let online = navigator.onLine;
    if (online) {
      try {
        online = (await fetch("/healthz", { cache: "no-store" })).ok;
      } catch (error) {
        online = false;
      }
    }
    note.hidden = online;
  };
  window.addEventListener("online", check);
  window.addEventListener("offline", check);
  check();
}

// The photo viewer: page dots, previous/next buttons and arrow keys over the scroll-snapping slides (swiping is
// the browser's own scrolling).
function setUpViewer(viewer) {
  const slides = viewer.querySelector(".slides");
  const figures = [...slides.querySelectorAll("figure")];
  if (figures.length < 2) return;
  const dots = document.createElement("div");
  dots.className = "dots";
  const current = () => Math.round(slides.scrollLeft / slides.clientWidth);
  const show = (index) => {
    const target = Math.max(0, Math.min(figures.length - 1, index));
    slides.scrollTo({ left: target * slides.clientWidth, behavior: "smooth" });
  };
  figures.forEach((figure, index) => {
    const dot = document.createElement("button");
    dot.type = "button";
    dot.setAttribute("aria-label", say(`사진 ${index + 1}`, `Photo ${index + 1}`));
    dot.addEventListener("click", () => show(index));
    dots.append(dot);
  });
  const button = (className, label, text, step) => {
    const element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.setAttribute("aria-label", label);
    element.textContent = text;
    element.addEventListener("click", () => show(current() + step));
    viewer.append(element);
  };
  button("prev", say("이전 사진", "Previous photo"), "‹", -1);
  button("next", say("다음 사진", "Next photo"), "›", 1);
  viewer.append(dots);
  const mark = () => {
    const index = current();
    [...dots.children].forEach((dot, i) => dot.setAttribute("aria-current", i === index ? "true" : "false"));
    // A clip scrolled away stops playing.
    figures.forEach((figure, i) => { if (i !== index) figure.querySelectorAll("video").forEach((video) => video.pause()); });
  };
  slides.addEventListener("scroll", () => requestAnimationFrame(mark), { passive: true });
  slides.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { show(current() + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { show(current() - 1); event.preventDefault(); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, video")) return;
    if (event.key === "ArrowRight") show(current() + 1);
    if (event.key === "ArrowLeft") show(current() - 1);
  });
  mark();
}

// `0:23`, `1:02:03`: a clip's length as players show it.
function clock(seconds) {
  const total = Math.round(seconds);
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(total / 3600), minutes = Math.floor(total / 60) % 60, rest = total % 60;
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

// A clip whose web version is being made: its progress is asked for every few seconds, and the page reloads
// to show the player once it is ready.
function watchRendition(element) {
  const status = element.querySelector("[role=status]");
  const label = status.textContent.replace(/\s*\d+%$/, "");
  const check = async () => {
    try {
      const response = await fetch(`/api/v1/photos/${element.dataset.rendition}`, { credentials: "same-origin" });
      if (response.ok) {
        const photo = await response.json();
        if (photo.video && photo.video.playable) { location.reload(); return; }
        if (photo.video && photo.video.rendition === "pending") status.textContent = `${label} ${photo.video.renditionProgress}%`;
        if (photo.video && photo.video.rendition === "failed") { location.reload(); return; }
      }
    } catch (error) { /* offline for a moment: try again */ }
    setTimeout(check, 3000);
  };
  setTimeout(check, 3000);
}

// A book being made (the books page): its progress is asked for every few seconds, and the page reloads to offer the
// download once it is made (or to say why it could not be).
function watchBook(element) {
  const bar = element.querySelector("[data-book-progress]");
  const status = element.querySelector("[data-book-status]");
  const label = status.textContent.replace(/\s*\d+%$/, "");
  const check = async () => {
    try {
      const response = await fetch(`/api/v1/books/${element.dataset.book}`, { credentials: "same-origin" });
      if (response.ok) {
        const book = await response.json();
        if (book.status !== element.dataset.state) { location.reload(); return; }
        if (book.status === "running") {
          bar.value = book.progress;
          bar.textContent = `${book.progress}%`;
          status.textContent = `${label} ${book.progress}%`;
        }
      }
    } catch (error) { /* offline for a moment: try again */ }
    setTimeout(check, 2000);
  };
  setTimeout(check, 2000);
}

// The calculator: key presses go to the server (one implementation, in Swift) without reloading the page.
function setUpCalculator(form) {
  const output = form.querySelector("output");
  const state = form.querySelector("input[name=state]");
  form.addEventListener("click", async (event) => {
    const key = event.target.closest("button[name=key]");
    if (!key) return;
    event.preventDefault();
    const response = await fetch("/api/v1/calculator", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": form.querySelector("input[name=_csrf]").value },
      body: JSON.stringify({ state: state.value ? JSON.parse(state.value) : null, key: key.value }),
    });
    if (!response.ok) return;
    const answer = await response.json();
    output.textContent = answer.display;
    state.value = JSON.stringify(answer.state);
  });
}

// A notice of what the last form did goes after a few seconds, unless the hand or the keyboard is on it (its undo).
function fadeNotice(notice) {
  let busy = false;
  for (const [start, end] of [["pointerenter", "pointerleave"], ["focusin", "focusout"]]) {
    notice.addEventListener(start, () => { busy = true; });
    notice.addEventListener(end, () => { busy = false; });
  }
  const hide = () => (busy ? setTimeout(hide, 2000) : notice.remove());
  setTimeout(hide, 10000);
}

// Passkeys (the sign-in page and 로그인 방법): the browser's WebAuthn ceremony between the server's options and its
// check, bytes as base64url in JSON. Where the browser has no WebAuthn the buttons stay hidden.
const fromBase64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toBase64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const postJSON = (url, csrf, body) => fetch(url, {
  method: "POST", credentials: "same-origin",
  headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body || {}),
});

// WebAuthn works on a page opened by the server's name (or localhost), never by its IP address: the server gives no
// options there, and the browser refuses a name other than the page's with a SecurityError. Neither is cancelling:
// the button says what to do instead.
const needsName = say("패스키는 IP 주소가 아니라 서버의 이름(예: saessak.home)으로 연 페이지에서만 쓸 수 있습니다.",
  "Passkeys work only on a page opened by the server's name (such as saessak.home), not by its IP address.");
const openedByAddress = () => /^[0-9.]+$/.test(location.hostname) || location.hostname.includes(":");
const passkeyStatus = (error, otherwise) => (openedByAddress() || (error && error.name === "SecurityError") ? needsName : otherwise);

function setUpPasskeySignIn(section) {
  if (!window.PublicKeyCredential) return;
  section.hidden = false;
  const status = section.querySelector("[data-passkey-status]");
  section.querySelector("button").addEventListener("click", async () => {
    status.textContent = "";
    const csrf = section.dataset.csrf;
    let credential;
    try {
      const options = await (await postJSON("/login/passkey/options", csrf)).json();
      credential = await navigator.credentials.get({ publicKey: { ...options, challenge: fromBase64url(options.challenge) } });
    } catch (error) { status.textContent = passkeyStatus(error, section.dataset.cancelled); return; }
    const response = credential.response;
    const answer = await postJSON("/login/passkey", csrf, {
      id: toBase64url(credential.rawId), clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData), signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : null, next: section.dataset.next,
    });
    if (answer.ok) location.assign((await answer.json()).next);
    else status.textContent = section.dataset.refused;
  });
}

// An account made with a passkey (an invitation, the first owner's setup): the section's fields first, then the
// passkey made for the new account.
function setUpPasskeySignUp(section) {
  if (!window.PublicKeyCredential) return;
  section.hidden = false;
  const status = section.querySelector("[data-passkey-status]");
  section.querySelector("button").addEventListener("click", async () => {
    status.textContent = "";
    const csrf = section.dataset.csrf;
    // The section's own fields (`passkey-username` …: the password form beside it has its `username`).
    const fields = Object.fromEntries([...section.querySelectorAll("input[name^=passkey-]")]
      .map((input) => [input.name.slice("passkey-".length), input.value]));
    const asked = await postJSON(`${section.dataset.action}/options`, csrf, fields);
    if (!asked.ok) { status.textContent = passkeyStatus(null, (await asked.json().catch(() => ({}))).detail || asked.statusText); return; }
    const made = await createPasskey(await asked.json(), status);
    if (!made) return;
    const answer = await postJSON(section.dataset.action, csrf, { ...fields, ...made });
    if (answer.ok) { location.assign((await answer.json()).next); return; }
    status.textContent = (await answer.json().catch(() => ({}))).detail || answer.statusText;
  });
}

function setUpPasskeyAdding(form) {
  if (!window.PublicKeyCredential) return;
  form.hidden = false;
  document.querySelectorAll("[data-passkey-unsupported]").forEach((hint) => { hint.hidden = true; });
  const status = form.querySelector("[data-passkey-status]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const csrf = form.querySelector("input[name=_csrf]").value;
    const asked = await postJSON("/settings/passkeys/options", csrf);
    if (!asked.ok) { status.textContent = passkeyStatus(null, (await asked.json().catch(() => ({}))).detail || asked.statusText); return; }
    const made = await createPasskey(await asked.json(), status);
    if (!made) return;
    const answer = await postJSON("/settings/passkeys", csrf, { name: form.querySelector("input[name=name]").value, ...made });
    if (answer.ok) { location.assign("/settings/sign-in"); return; }
    const problem = await answer.json().catch(() => ({}));
    status.textContent = problem.detail || answer.statusText;
  });
}

// The browser makes a passkey from the server's creation options; its answer as the server reads it (base64url), or
// null when none was made (cancelled, or an authenticator that already holds one: said in `status`).
async function createPasskey(options, status) {
  try {
    const credential = await navigator.credentials.create({ publicKey: {
      ...options, challenge: fromBase64url(options.challenge), user: { ...options.user, id: fromBase64url(options.user.id) },
      excludeCredentials: options.excludeCredentials.map((known) => ({ ...known, id: fromBase64url(known.id) })),
    } });
    return {
      clientDataJSON: toBase64url(credential.response.clientDataJSON),
      attestationObject: toBase64url(credential.response.attestationObject),
    };
  } catch (error) {
    status.textContent = passkeyStatus(error, say(`패스키를 만들지 않았습니다 (${error.name}).`, `No passkey was made (${error.name}).`));
    return null;
  }
}

document.querySelectorAll("[data-notice]").forEach(fadeNotice);
document.querySelectorAll("[data-viewer]").forEach(setUpViewer);
document.querySelectorAll("[data-editor]").forEach(setUpEditor);
document.querySelectorAll("[data-calculator]").forEach(setUpCalculator);
document.querySelectorAll("[data-rendition]").forEach(watchRendition);
document.querySelectorAll("[data-book]:has([data-book-progress])").forEach(watchBook);
document.querySelectorAll("[data-offline]").forEach(watchConnection);
document.querySelectorAll("[data-passkey-sign-in]").forEach(setUpPasskeySignIn);
document.querySelectorAll("[data-passkey-add]").forEach(setUpPasskeyAdding);
document.querySelectorAll("[data-passkey-sign-up]").forEach(setUpPasskeySignUp);
if (typeof Outbox !== "undefined") switched.then(() => Outbox.start());
