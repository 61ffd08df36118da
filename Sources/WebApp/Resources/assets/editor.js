// The entry editor with the script: what is typed is kept on this device as a draft (IndexedDB, outbox.js) while it
// is typed; chosen photos and clips go into the upload queue at once, each with its progress; saving queues the
// draft, which goes to the server when it answers — now, or after the phone finds its signal again. An edit whose
// entry changed elsewhere meanwhile comes back here with both versions side by side, for the writer to choose.
"use strict";

function setUpEditor(form) {
  const input = form.querySelector("[data-upload]");
  const list = form.querySelector("[data-photos]");
  const date = form.querySelector("input[name=date]");
  const version = form.querySelector("input[name=version]");
  const entryId = (new URL(form.action, location.href).pathname.match(/^\/entries\/([0-9a-f-]{36})\/edit$/) || [])[1] || null;
  let dateTouched = date.value !== "" && entryId !== null;
  date.addEventListener("input", () => { dateTouched = true; });
  let draft = null;

  const queue = document.createElement("p");
  queue.className = "hint";
  queue.setAttribute("aria-live", "polite");
  queue.dataset.queue = "";
  list.after(queue);
  const notice = document.createElement("div");
  notice.setAttribute("role", "status");
  notice.dataset.draftNotice = "";
  form.prepend(notice);

  const tools = (item) => {
    const bar = document.createElement("div");
    bar.className = "tools";
    const make = (text, label, action) => {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      element.setAttribute("aria-label", label);
      element.addEventListener("click", () => { action(); keep(); });
      bar.append(element);
    };
    make("↑", say("앞으로", "Move up"), () => item.previousElementSibling && list.insertBefore(item, item.previousElementSibling));
    make("↓", say("뒤로", "Move down"), () => item.nextElementSibling && list.insertBefore(item.nextElementSibling, item));
    make("✕", say("빼기", "Remove"), () => item.remove());
    item.append(bar);
  };
  // Stored photos: the keep checkbox becomes a remove button.
  for (const item of list.children) {
    const keepBox = item.querySelector("label");
    const box = item.querySelector("input");
    box.type = "hidden";
    item.append(box);
    keepBox.remove();
    tools(item);
  }

  // The browser's own file button speaks the browser's language: the page's label, styled as a button, opens the
  // picker instead (the input stays in the page, hidden from sight, for the keyboard and screen readers).
  const picker = form.querySelector(`label[for="${input.id}"]`);
  if (picker) {
    input.classList.add("visually-hidden");
    picker.classList.add("button", "picker");
    input.addEventListener("focus", () => picker.classList.add("focused"));
    input.addEventListener("blur", () => picker.classList.remove("focused"));
  }

  const placeholder = (name) => Object.assign(document.createElement("span"), { className: "placeholder", textContent: name });
  const thumbnail = (id, name) => Object.assign(document.createElement("img"), {
    src: `/api/v1/photos/${id}/thumbnail`, alt: name, width: 112, height: 112 });
  const hidden = (id) => Object.assign(document.createElement("input"), { type: "hidden", name: "photo", value: id });

  // What the form holds now, as the draft keeps it.
  const fields = () => {
    const value = (name) => (form.querySelector(`[name=${name}]`) || {}).value || "";
    return { title: value("title"), body: value("body"), date: value("date"), weather: value("weather"), tags: value("tags"),
      place: value("place"), latitude: value("latitude"), longitude: value("longitude"),
      child: [...form.querySelectorAll("input[name=child]:checked")].map((box) => box.value), dateSet: dateTouched };
  };
  const items = () => [...list.children].filter((item) => !item.dataset.refused).map((item) => (item.dataset.upload
    ? { upload: item.dataset.upload } : { photo: (item.querySelector("input[name=photo]") || {}).value })).filter((item) => item.upload || item.photo);
  const keep = async (state = "editing") => {
    draft = draft || { id: Outbox.uuid(), created: Date.now(), entryId, version: version.value || null, key: Outbox.uuid() };
    Object.assign(draft, { fields: fields(), items: items(), state });
    delete draft.error;
    await Outbox.put("drafts", draft);
  };
  // A date before a tagged child's birth (an old photo's EXIF date suggested it) gets a gentle word, no more.
  const unborn = form.querySelector("[data-unborn]");
  const checkBirth = () => {
    if (!unborn) return;
    const day = date.value.slice(0, 10);
    const names = [...form.querySelectorAll("input[name=child]:checked")]
      .filter((box) => box.dataset.born && day && day < box.dataset.born).map((box) => box.parentElement.textContent.trim());
    unborn.textContent = names.length ? say(`${names.join(", ")}: 태어나기 전 날짜입니다. 날짜를 확인해 주세요.`,
      `${names.join(", ")}: this date is before the birth. Please check the date.`) : "";
  };
  form.addEventListener("input", checkBirth);
  form.addEventListener("change", checkBirth);
  checkBirth();
  let timer;
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(keep, 300); });
  form.addEventListener("change", () => { clearTimeout(timer); timer = setTimeout(keep, 300); });

  const counter = async () => {
    const waiting = [...list.querySelectorAll("[data-upload]")].filter((item) => item.dataset.state === "waiting").length;
    queue.textContent = waiting ? say(`${waiting}장 대기 중`, `${waiting} waiting`) : "";
  };

  // A queued file's tile: its preview (or a tile with its name), then its progress, then the server's thumbnail.
  const tile = (upload) => {
    const item = document.createElement("li");
    item.dataset.upload = upload.id;
    item.dataset.state = upload.state;
    if (upload.file) {
      const isVideo = (upload.type || "").startsWith("video/");
      const preview = document.createElement(isVideo ? "video" : "img");
      preview.src = URL.createObjectURL(upload.file);
      if (isVideo) { preview.muted = true; preview.playsInline = true; preview.preload = "metadata"; }
      preview.setAttribute(isVideo ? "aria-label" : "alt", upload.name);
      preview.width = 112;
      preview.height = 112;
      preview.className = "preview";
      preview.addEventListener("error", () => preview.replaceWith(placeholder(upload.name)), { once: true });
      item.append(preview);
    } else {
      item.append(placeholder(upload.name));
    }
    const progress = document.createElement("progress");
    progress.max = 100;
    progress.value = upload.size ? Math.round((upload.offset / upload.size) * 100) : 0;
    progress.setAttribute("aria-label", say(`${upload.name} 올리는 중`, `Uploading ${upload.name}`));
    item.append(progress);
    list.append(item);
    update(upload);
    return item;
  };

  const update = (upload) => {
    const item = list.querySelector(`[data-upload="${upload.id}"]`);
    if (!item) return;
    item.dataset.state = upload.state;
    const progress = item.querySelector("progress");
    if (progress && upload.size) progress.value = Math.round((upload.offset / upload.size) * 100);
    if (upload.state === "refused" && !item.dataset.refused) {
      item.dataset.refused = "1";
      const note = document.createElement("p");
      note.setAttribute("role", "alert");
      note.textContent = `${say("올리지 못했습니다", "Upload failed")}: ${upload.name} ${upload.reason || ""}`;
      item.replaceChildren(note);
      keep();
    }
    if (upload.state === "done" && !item.querySelector("input[name=photo]")) {
      const photo = upload.photo;
      if (progress) progress.remove();
      const shown = item.querySelector(".preview, .placeholder");
      if (shown && shown.src) URL.revokeObjectURL(shown.src);
      const image = thumbnail(photo.id, upload.name);
      if (shown) shown.replaceWith(image); else item.prepend(image);
      if (photo.video) {
        item.append(Object.assign(document.createElement("span"), { className: "video-badge", textContent: `▶ ${clock(photo.video.durationSeconds)}` }));
      }
      item.append(hidden(photo.id));
      tools(item);
      const first = list.querySelector("input[name=photo]") === item.querySelector("input[name=photo]");
      if (first && photo.takenAt && !dateTouched) { date.value = photo.takenAt.slice(0, 16); checkBirth(); }
      if (first && photo.latitude != null) {
        const latitude = form.querySelector("input[name=latitude]");
        const longitude = form.querySelector("input[name=longitude]");
        if (latitude.value === "") { latitude.value = photo.latitude; longitude.value = photo.longitude; }
        // The place the photo was taken, found on the server: shown until a name is typed, and the entry's place if
        // none is (the page shows it in the reader's language).
        const found = photo.region ? regionText(photo.region) : photo.country && countryText(photo.country);
        if (found) form.querySelector("input[name=place]").placeholder = found;
      }
    }
    counter();
  };

  const regionText = (region) => {
    if (document.documentElement.lang === "en") {
      const names = region.english;
      return [names.eupmyeondong, names.sigungu, names.sido].filter(Boolean).join(", ");
    }
    return [region.korean.sido, region.korean.sigungu, region.korean.eupmyeondong].filter(Boolean).join(" ");
  };

  // Outside Korea's areas: the country (일본, Japan).
  const countryText = (country) => (document.documentElement.lang === "en" ? country.english : country.korean);

  input.addEventListener("change", async () => {
    await keep();
    for (const file of input.files) {
      const upload = { id: Outbox.uuid(), created: Date.now(), draft: draft.id, file, name: file.name, type: file.type,
        size: file.size, location: null, offset: 0, state: "waiting" };
      await Outbox.put("uploads", upload);
      tile(upload);
    }
    input.value = "";
    await keep();
    Outbox.flush();
  });

  // A draft kept on this device comes back into the form: the one named in the address, or the last one being
  // written for this entry (or for a new one).
  const restore = async (kept) => {
    draft = kept;
    const f = kept.fields;
    for (const name of ["title", "body", "date", "weather", "tags", "place", "latitude", "longitude"]) {
      const field = form.querySelector(`[name=${name}]`);
      if (field) field.value = f[name];
    }
    form.querySelectorAll("input[name=child]").forEach((box) => { box.checked = f.child.includes(box.value); });
    dateTouched = f.dateSet;
    list.replaceChildren();
    for (const item of kept.items) {
      if (item.photo) {
        const li = document.createElement("li");
        li.append(thumbnail(item.photo, say("사진", "Photo")), hidden(item.photo));
        tools(li);
        list.append(li);
      } else {
        const upload = await Outbox.get("uploads", item.upload);
        if (upload) tile(upload);
      }
    }
  };

  const message = (text, ...actions) => {
    const paragraph = Object.assign(document.createElement("p"), { textContent: text });
    notice.replaceChildren(paragraph, ...actions);
  };
  const button = (text, action, secondary) => {
    const element = Object.assign(document.createElement("button"), { type: "button", textContent: text });
    if (secondary) element.className = "secondary";
    element.addEventListener("click", action);
    return element;
  };

  // Both versions side by side; the writer keeps one.
  const conflict = (kept) => {
    const side = (heading, title, body) => {
      const section = document.createElement("section");
      section.className = "version";
      section.append(Object.assign(document.createElement("h2"), { textContent: heading }),
        Object.assign(document.createElement("p"), { className: "version-title", textContent: title }),
        Object.assign(document.createElement("p"), { className: "version-body", textContent: body }));
      return section;
    };
    const both = document.createElement("div");
    both.className = "versions";
    both.append(side(say("이 기기에서 쓴 내용", "Written on this device"), kept.fields.title, kept.fields.body),
      side(say("지금 서버에 있는 내용", "On the server now"), kept.server.title, kept.server.body));
    message(say("그 사이에 다른 곳에서 이 일기가 바뀌었습니다. 어느 쪽을 남길까요?", "This entry was changed elsewhere meanwhile. Which one do you keep?"),
      both,
      button(say("이 기기의 내용으로 저장", "Save this device's version"), async () => {
        Object.assign(kept, { version: kept.serverVersion, state: "queued" });
        draft = kept;
        await Outbox.put("drafts", kept);
        sending();
      }),
      button(say("서버의 내용 유지", "Keep the server's version"), async () => {
        await Outbox.remove("drafts", kept.id);
        location.href = `/entries/${kept.entryId}`;
      }, true));
    notice.querySelector("button").focus();
  };

  const sending = () => {
    message(say("보내는 중…", "Sending…"));
    Outbox.flush();
  };

  Outbox.listen(async (event) => {
    if (event.upload) update(event.upload);
    if (!draft) return;
    if (event.sent && event.sent.draft === draft.id) { location.href = `/entries/${event.sent.entry}`; return; }
    if (event.draft && event.draft.id === draft.id) {
      draft = event.draft;
      if (draft.state === "conflict") conflict(draft);
      if (draft.state === "failed") {
        message(`${say("보내지 못했습니다", "Could not send")}: ${draft.error}`);
        notice.setAttribute("role", "alert");
        await keep();
      }
    }
    if (event.unreachable && draft.state === "queued") {
      message(say("이 기기에 저장했습니다. 서버에 연결되면 보냅니다.", "Saved on this device. It is sent once the server can be reached."),
        Object.assign(document.createElement("a"), { href: "/entries/new", textContent: say("새 일기 쓰기", "Write another") }));
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    clearTimeout(timer);
    await keep("queued");
    sending();
  });

  // Photos shared from the phone's gallery (sw.js held them on this device): shown, and taken into this new entry
  // in the order they came only when the member says so — another site can post a share too, and nothing it sent
  // is uploaded unless kept here.
  const adoptShared = async () => {
    if (entryId) return false;
    const held = (await Outbox.all("uploads")).filter((upload) => upload.shared);
    if (!held.length) return false;
    const previews = document.createElement("ul");
    previews.className = "shared-previews";
    for (const upload of held) {
      const item = document.createElement("li");
      if (upload.file && (upload.type || "").startsWith("image/")) {
        const image = Object.assign(document.createElement("img"), { src: URL.createObjectURL(upload.file), alt: upload.name, width: 64, height: 64 });
        image.addEventListener("error", () => image.replaceWith(placeholder(upload.name)), { once: true });
        item.append(image);
      } else {
        item.append(placeholder(upload.name));
      }
      previews.append(item);
    }
    message(say(`공유한 사진 ${held.length}장이 이 기기에 있습니다. 이 일기에 넣을까요?`,
      `${held.length} shared photo(s) are on this device. Add them to this entry?`),
    previews,
    button(say("넣기", "Add them"), async () => {
      await keep();
      for (const upload of held) {
        Object.assign(upload, { shared: false, draft: draft.id, state: "waiting" });
        await Outbox.put("uploads", upload);
        tile(upload);
      }
      await keep();
      message(say(`공유한 사진 ${held.length}장을 넣었습니다.`, `${held.length} shared photo(s) added.`));
      Outbox.flush();
    }),
    button(say("버리기", "Discard them"), async () => {
      for (const upload of held) await Outbox.remove("uploads", upload.id);
      message(say("공유한 사진을 버렸습니다.", "The shared photos were discarded."));
    }, true));
    return true;
  };

  const open = async () => {
    if (await adoptShared()) return;
    const named = new URLSearchParams(location.search).get("draft");
    const drafts = await Outbox.all("drafts");
    const kept = named ? drafts.find((d) => d.id === named)
      : drafts.filter((d) => d.state === "editing" && d.entryId === entryId).pop();
    if (!kept || kept.entryId !== entryId) return;
    await restore(kept);
    if (kept.state === "conflict") return conflict(kept);
    if (kept.state === "failed") { message(`${say("보내지 못했습니다", "Could not send")}: ${kept.error}`); return; }
    if (kept.state === "queued") { message(say("이 기기에 저장되어 보낼 차례를 기다립니다.", "Saved on this device, waiting to be sent.")); return; }
    message(say("이 기기에 저장해 둔 초안을 불러왔습니다.", "The draft kept on this device is back."),
      button(say("초안 버리기", "Discard the draft"), async () => {
        await Outbox.remove("drafts", kept.id);
        for (const item of kept.items) if (item.upload) await Outbox.remove("uploads", item.upload);
        location.href = location.pathname;
      }, true));
  };
  // A share that reached the server instead of this device's service worker: said above whatever else is shown.
  open().then(() => {
    if (new URLSearchParams(location.search).get("shared") !== "lost") return;
    notice.prepend(Object.assign(document.createElement("p"), { textContent: say(
      "공유한 사진을 받지 못했습니다. 다시 공유하거나 아래에서 사진을 골라 주세요.", "The shared photos did not arrive. Share them again, or pick them below.") }));
    notice.setAttribute("role", "alert");
  });
}
