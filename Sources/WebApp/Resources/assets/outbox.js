// Saessak's outbox: what a member wrote or picked on this device, kept in IndexedDB until the server has it.
// Entries go with an Idempotency-Key (a new one) or If-Match (an edit), so a draft sent again after a lost answer is
// made once and an edit never overwrites a newer version silently; photos and clips go by the tus 1.0 protocol
// (/api/v1/uploads), a piece at a time, so a cut connection goes on from the last byte the server stored. Everything
// is sent in the order it was made, whenever a page of the app is open and the server answers: at load, when the
// browser says the network is back, and every few seconds while something waits. Signing out empties it.
"use strict";

const Outbox = (() => {
  const lang = document.documentElement.lang;
  const say = (ko, en) => (lang === "ko" ? ko : en);
  const PIECE = 1024 * 1024;
  const TUS = { "Tus-Resumable": "1.0.0" };
  const listeners = new Set();
  let database;

  const open = () => database || (database = new Promise((resolve, reject) => {
    const request = indexedDB.open("saessak-outbox", 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore("drafts", { keyPath: "id" });
      request.result.createObjectStore("uploads", { keyPath: "id" });
    };
    request.onsuccess = () => {
      // Another member signed in (app.js deletes the outbox, maybe from another tab): this connection lets go, or the
      // deletion would wait for it, and the next use opens the new, empty outbox.
      request.result.onversionchange = () => { request.result.close(); database = undefined; };
      resolve(request.result);
    };
    request.onerror = () => reject(request.error);
  }));

  const run = async (store, mode, work) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(store, mode);
      const request = work(transaction.objectStore(store));
      transaction.oncomplete = () => resolve(request && request.result);
      transaction.onerror = () => reject(transaction.error);
    });
  };
  const all = async (store) => ((await run(store, "readonly", (s) => s.getAll())) || []).sort((a, b) => a.created - b.created);
  const get = (store, id) => run(store, "readonly", (s) => s.get(id));
  const put = (store, value) => run(store, "readwrite", (s) => s.put(value));
  const remove = (store, id) => run(store, "readwrite", (s) => s.delete(id));

  const csrf = () => (document.querySelector("meta[name=saessak-csrf]") || {}).content || "";
  const changed = (detail) => listeners.forEach((listener) => listener(detail));

  // Thrown when the server cannot be reached (or is failing): everything stays for the next try.
  class Unreachable extends Error {}

  const call = async (method, path, { headers = {}, body } = {}) => {
    let response;
    try {
      response = await fetch(path, { method, headers: { "X-CSRF-Token": csrf(), ...headers }, body, credentials: "same-origin", cache: "no-store" });
    } catch (error) {
      throw new Unreachable(error.message);
    }
    // A session that ran out (401) is not the draft's fault: it waits until the member signs in again.
    if (response.status >= 500 || response.status === 0 || response.status === 401) throw new Unreachable(`HTTP ${response.status}`);
    if (response.redirected && new URL(response.url).pathname === "/login") throw new Unreachable("signed out");
    return response;
  };
  // What the server refuses for good (the file itself, or a malformed announcement): anything else is waited out.
  const REFUSED = new Set([400, 413, 415, 422]);
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const detail = async (response) => {
    try { return (await response.json()).detail || `HTTP ${response.status}`; } catch (error) { return `HTTP ${response.status}`; }
  };

  // One piece of a file, with progress (fetch cannot report an upload's progress).
  const sendPiece = (location, offset, blob, onProgress) => new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PATCH", location);
    request.setRequestHeader("Tus-Resumable", "1.0.0");
    request.setRequestHeader("Upload-Offset", String(offset));
    request.setRequestHeader("Content-Type", "application/offset+octet-stream");
    request.setRequestHeader("X-CSRF-Token", csrf());
    request.upload.addEventListener("progress", (event) => onProgress(offset + event.loaded));
    request.addEventListener("load", () => resolve(request));
    request.addEventListener("error", () => reject(new Unreachable("connection lost")));
    request.addEventListener("abort", () => reject(new Unreachable("aborted")));
    request.send(blob);
  });

  // Sends one queued file from where the server's copy stops; returns when it is a photo or was refused.
  const upload = async (item, announced = false) => {
    if (!item.location) {
      announced = true;
      const name = new TextEncoder().encode(item.name);
      const response = await call("POST", "/api/v1/uploads", {
        headers: { ...TUS, "Upload-Length": String(item.size), "Idempotency-Key": item.id,
          "Upload-Metadata": `filename ${btoa(String.fromCharCode(...name))}` } });
      if (REFUSED.has(response.status)) return refuse(item, await detail(response));
      if (!response.ok) throw new Unreachable(`HTTP ${response.status}`);
      item.location = response.headers.get("Location");
      await put("uploads", item);
    }
    let offset;
    const status = await call("GET", item.location);
    if (status.status === 404) {
      // Forgotten by the server (a day passed): announced again, once; the file goes from its start.
      if (announced) throw new Unreachable("the upload just announced is not there");
      Object.assign(item, { location: null, offset: 0 });
      await put("uploads", item);
      return upload(item, true);
    }
    if (!status.ok) throw new Unreachable(`HTTP ${status.status}`);
    const known = await status.json();
    if (known.refusal) return refuse(item, known.refusal.detail);
    if (known.photo) return finish(item, known.photo);
    offset = known.offset;
    while (true) {
      const end = Math.min(item.size, offset + PIECE);
      const answer = await sendPiece(item.location, offset, item.file.slice(offset, end), (sent) => {
        item.offset = sent;
        changed({ upload: item });
      });
      if (answer.status === 409) {
        // Another offset than the server's, or a piece still arriving from a cut connection: ask, wait a moment.
        await pause(1000);
        const again = await call("GET", item.location);
        if (!again.ok) throw new Unreachable(`HTTP ${again.status}`);
        offset = (await again.json()).offset;
        continue;
      }
      if (!REFUSED.has(answer.status) && answer.status !== 204) throw new Unreachable(`HTTP ${answer.status}`);
      if (answer.status !== 204) {
        let reason = `HTTP ${answer.status}`;
        try { reason = JSON.parse(answer.responseText).detail || reason; } catch (error) { /* not JSON */ }
        return refuse(item, reason);
      }
      offset = Number(answer.getResponseHeader("Upload-Offset"));
      item.offset = offset;
      await put("uploads", item);
      changed({ upload: item });
      if (answer.getResponseHeader("Saessak-Photo")) {
        return finish(item, (await (await call("GET", item.location)).json()).photo);
      }
    }
  };
  const refuse = async (item, reason) => {
    Object.assign(item, { state: "refused", reason, file: null });
    await put("uploads", item);
    changed({ upload: item });
  };
  const finish = async (item, photo) => {
    Object.assign(item, { state: "done", photo, file: null, offset: item.size });
    await put("uploads", item);
    changed({ upload: item });
  };

  // The entry's JSON from a draft's fields, with the photos in the order chosen (refused files left out).
  const payload = (draft, uploads) => {
    const f = { ...draft.fields };
    const photos = draft.items.map((item) => (item.photo ? { id: item.photo } : (uploads.get(item.upload) || {}).photo)).filter(Boolean);
    // Files sent after the page was closed: the first photo's time and place fill what the writer left alone, as
    // the editor does when they arrive while it is open.
    const first = photos[0] || {};
    if (!f.dateSet && first.takenAt) f.date = first.takenAt;
    if (!f.latitude && first.latitude != null) Object.assign(f, { latitude: String(first.latitude), longitude: String(first.longitude) });
    const body = { title: f.title, body: f.body, childIds: f.child, photoIds: photos.map((photo) => photo.id),
      tags: f.tags.split(",").map((tag) => tag.trim()).filter(Boolean) };
    if (f.date) body.date = f.date.slice(0, 16);
    if (f.weather.trim()) body.weather = f.weather.trim();
    if (f.place.trim() || f.latitude) {
      body.place = { name: f.place.trim() || null,
        latitude: f.latitude ? Number(f.latitude) : null, longitude: f.longitude ? Number(f.longitude) : null };
    }
    return body;
  };

  const send = async (draft, uploads) => {
    const headers = { "Content-Type": "application/json" };
    if (draft.entryId) headers["If-Match"] = `"${draft.version}"`;
    else headers["Idempotency-Key"] = draft.key;
    const response = await call(draft.entryId ? "PUT" : "POST", draft.entryId ? `/api/v1/entries/${draft.entryId}` : "/api/v1/entries",
      { headers, body: JSON.stringify(payload(draft, uploads)) });
    if (response.ok) {
      const entry = await response.json();
      await remove("drafts", draft.id);
      for (const item of draft.items) if (item.upload) await remove("uploads", item.upload);
      changed({ sent: { draft: draft.id, entry: entry.id, title: entry.title } });
      return;
    }
    if (response.status === 412) {
      const current = await call("GET", `/api/v1/entries/${draft.entryId}`);
      Object.assign(draft, { state: "conflict", server: await current.json(), serverVersion: (current.headers.get("ETag") || "").replace(/"/g, "") });
    } else {
      Object.assign(draft, { state: "failed", error: await detail(response) });
    }
    await put("drafts", draft);
    changed({ draft });
  };

  // Everything waiting, in order: the files first, then each queued draft whose files are all in.
  let flushing = null;
  const flush = () => flushing || (flushing = (async () => {
    const work = async () => {
      try {
        for (const item of await all("uploads")) {
          if (item.state === "waiting") await upload(item);
        }
        const uploads = new Map((await all("uploads")).map((item) => [item.id, item]));
        for (const draft of await all("drafts")) {
          if (draft.state !== "queued") continue;
          if (draft.items.some((item) => item.upload && (uploads.get(item.upload) || {}).state === "waiting")) break;
          await send(draft, uploads);
        }
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
        changed({ unreachable: true });
      }
    };
    // One tab at a time sends (Web Locks), so that two open pages never send the same piece twice.
    try {
      if (navigator.locks) await navigator.locks.request("saessak-outbox", work);
      else await work();
    } finally {
      flushing = null;
      changed({});
    }
  })());

  const pending = async () => {
    const uploads = (await all("uploads")).filter((item) => item.state === "waiting");
    const drafts = (await all("drafts")).filter((draft) => draft.state !== "editing");
    return { uploads, drafts };
  };

  // A banner on every page while something waits, and once when it went.
  const banner = () => {
    const main = document.querySelector("main");
    if (!main || !csrf()) return;
    const note = document.createElement("p");
    note.className = "outbox";
    note.setAttribute("role", "status");
    note.hidden = true;
    main.prepend(note);
    const show = async (event) => {
      if (event && event.sent) {
        note.hidden = false;
        note.replaceChildren(say("보냈습니다: ", "Sent: "), Object.assign(document.createElement("a"), {
          href: `/entries/${event.sent.entry}`, textContent: event.sent.title }));
        note.dataset.sent = event.sent.entry;
        return;
      }
      const { uploads, drafts } = await pending();
      const troubled = drafts.filter((draft) => draft.state !== "queued");
      if (!uploads.length && !drafts.length) { if (!note.dataset.sent) note.hidden = true; return; }
      delete note.dataset.sent;
      note.hidden = false;
      const parts = [];
      if (drafts.length - troubled.length) parts.push(say(`보낼 일기 ${drafts.length - troubled.length}개`, `${drafts.length - troubled.length} entries to send`));
      if (uploads.length) parts.push(say(`${uploads.length}장 대기 중`, `${uploads.length} waiting`));
      note.replaceChildren(parts.join(" · ") + (parts.length ? say(" — 연결되면 보냅니다", " — sent when connected") : ""));
      for (const draft of troubled) {
        const link = document.createElement("a");
        link.href = draft.entryId ? `/entries/${draft.entryId}/edit?draft=${draft.id}` : `/entries/new?draft=${draft.id}`;
        link.textContent = draft.state === "conflict" ? say(`확인 필요: ${draft.fields.title}`, `Needs a look: ${draft.fields.title}`)
          : say(`보내지 못함: ${draft.fields.title}`, `Not sent: ${draft.fields.title}`);
        note.append(" ", link);
      }
    };
    listeners.add(show);
    show();
  };

  const start = () => {
    if (!("indexedDB" in window) || !csrf()) return;
    banner();
    flush();
    window.addEventListener("online", flush);
    setInterval(async () => {
      const { uploads, drafts } = await pending();
      if (uploads.length || drafts.some((draft) => draft.state === "queued")) flush();
    }, 5000);
    // Signing out empties this device's storage: say so when something has not been sent yet.
    document.querySelectorAll("form[action^='/logout']").forEach((form) => form.addEventListener("submit", async (event) => {
      if (form.dataset.confirmed) return;
      event.preventDefault();
      const { uploads, drafts } = await pending();
      if ((uploads.length || drafts.length) && !confirm(say("아직 보내지 않은 일기나 사진이 이 기기에서 지워집니다. 로그아웃할까요?",
        "Entries or photos not sent yet will be removed from this device. Sign out?"))) return;
      form.dataset.confirmed = "1";
      form.submit();
    }));
  };

  return { all, get, put, remove, flush, pending, start, listen: (listener) => listeners.add(listener),
    uuid: () => crypto.randomUUID() };
})();
