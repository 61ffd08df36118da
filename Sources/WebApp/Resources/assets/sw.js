// Saessak's service worker (served at /sw.js, scope /): the app shell and what the member recently viewed, so the
// home page, the timeline and recent entries open without a network. Pages are always asked of the server first
// (nothing changes for a connected reader); only when it cannot be reached is the kept copy shown, and the page's
// script says plainly that it is offline. Never kept: share-link and invitation pages, sign-in and setup, and the
// API (except thumbnails, which never change). Signing out (Clear-Site-Data) empties everything; a page answered with
// the sign-in form (a revoked session) empties the kept pages and thumbnails at once.
"use strict";

const VERSION = new URL(self.location.href).searchParams.get("v") || "0";
const SHELL = `saessak-shell-${VERSION}`;
const PAGES = "saessak-pages";
const THUMBNAILS = "saessak-thumbnails";
const KEEP_PAGES = 40;
const KEEP_THUMBNAILS = 300;
const SHELL_FILES = ["/offline", `/assets/app.css?v=${VERSION}`, `/assets/app.js?v=${VERSION}`,
  `/assets/outbox.js?v=${VERSION}`, `/assets/editor.js?v=${VERSION}`,
  `/assets/icon-192.png?v=${VERSION}`, `/assets/icon-512.png?v=${VERSION}`];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("saessak-shell-") && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

const neverKept = (path) => /^\/(s|invite)\//.test(path) || /^\/(login|logout|setup|sw\.js)/.test(path);
const isThumbnail = (url) => /^\/api\/v1\/photos\/[0-9a-f-]{36}\/thumbnail$/.test(url.pathname);

async function trim(name, keep) {
  const cache = await caches.open(name);
  const keys = await cache.keys();
  for (const request of keys.slice(0, Math.max(0, keys.length - keep))) await cache.delete(request);
}

async function forget() {
  await caches.delete(PAGES);
  await caches.delete(THUMBNAILS);
}

async function page(request) {
  try {
    const response = await fetch(request);
    const url = new URL(response.url);
    if (response.redirected && url.pathname === "/login") {
      await forget();  // the session is gone: nothing it saw stays
    } else if (response.ok && !response.redirected && (response.headers.get("content-type") || "").startsWith("text/html")) {
      const cache = await caches.open(PAGES);
      await cache.put(request.url, response.clone());
      await trim(PAGES, KEEP_PAGES);
    }
    return response;
  } catch (error) {
    const kept = await caches.match(request.url, { cacheName: PAGES });
    return kept || (await caches.match("/offline", { cacheName: SHELL })) || Response.error();
  }
}

async function thumbnail(request) {
  const kept = await caches.match(request, { cacheName: THUMBNAILS });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(THUMBNAILS);
    await cache.put(request, response.clone());
    await trim(THUMBNAILS, KEEP_THUMBNAILS);
  }
  return response;
}

// Photos and clips shared to the installed app from the phone's gallery (the manifest's `share_target` posts them
// here): kept on this device in the outbox's upload queue, marked as shared and held (state "shared", which outbox.js
// never sends); the editor then opens and shows them, and only the member's "넣기" takes them into the new entry and
// the queue — after the sign-in page, if the session ran out. A page of another site can post here too (a form is
// all it takes, issue 66), so nothing it sends goes anywhere before the member keeps it. Nothing goes to the server
// from here: a browser without this worker posts to the server's /share, which says the photos did not arrive.
const outbox = () => new Promise((resolve, reject) => {
  const request = indexedDB.open("saessak-outbox", 1);
  request.onupgradeneeded = () => {  // the schema outbox.js makes, for a share before any page opened it
    request.result.createObjectStore("drafts", { keyPath: "id" });
    request.result.createObjectStore("uploads", { keyPath: "id" });
  };
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

async function shared(request) {
  let count = 0;
  try {
    const files = (await request.formData()).getAll("photos").filter((file) => file instanceof File && file.size > 0);
    const db = await outbox();
    await new Promise((resolve, reject) => {
      const transaction = db.transaction("uploads", "readwrite");
      const now = Date.now();
      files.forEach((file, index) => transaction.objectStore("uploads").put({
        id: crypto.randomUUID(), created: now + index, draft: null, shared: true, file, name: file.name || "photo",
        type: file.type, size: file.size, location: null, offset: 0, state: "shared" }));
      transaction.oncomplete = resolve;
      transaction.onerror = () => reject(transaction.error);
    });
    db.close();
    count = files.length;
  } catch (error) {
    return Response.redirect("/entries/new?shared=lost", 303);
  }
  return Response.redirect(`/entries/new?shared=${count}`, 303);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method === "POST" && url.origin === self.location.origin && url.pathname === "/share") {
    event.respondWith(shared(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || neverKept(url.pathname)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (isThumbnail(url)) {
    event.respondWith(thumbnail(request));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(caches.match(request, { cacheName: SHELL }).then((kept) => kept || fetch(request)));
  }
});
