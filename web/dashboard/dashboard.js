// What every dashboard page shares: the JSON endpoints under /dashboard/api/ (with the
// session's CSRF token on every state-changing request), the top bar's Sign out, building
// elements without innerHTML, dates, the confirmation dialog and the shown-once secret box.

const API = '/dashboard/api/';
const SIGN_IN = '/dashboard/sign-in';

// The session's CSRF token, from GET session once per page load (startPage); a change asked for
// before that answer arrives waits for it rather than going out without the token.
let csrfToken = null;
let sessionReady = null;

export class ApiError extends Error {
  constructor(status, message, response) {
    super(message);
    this.status = status;
    this.response = response;
  }
}

// Calls a JSON endpoint and returns the whole envelope ({data, pagination?}). Every method but
// GET and HEAD is state-changing and carries X-CSRF-Token. A 401 means the session ended: the
// page goes to the sign-in page, unless the caller handles 401 itself (signing in).
export async function api(path, { method = 'GET', body, on401 = 'sign-in' } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') {
    if (!csrfToken && sessionReady) await sessionReady.catch(() => {});
    if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  }
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(API + path, init);
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
  }
  let payload = null;
  try {
    payload = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status alone is reported below.
  }
  if (response.status === 401 && on401 === 'sign-in') {
    window.location.assign(SIGN_IN);
    // Nothing more to show: the page is being left.
    throw new ApiError(401, 'Your session has ended. Please sign in again.', response);
  }
  if (!response.ok || !payload || payload.success !== true) {
    const sentence = payload && typeof payload.error === 'string' ? payload.error
      : `The server answered ${response.status}. Please try again.`;
    throw new ApiError(response.status, sentence, response);
  }
  return payload;
}

// For the signed-in pages: fetches the session (its CSRF token and the user), shows who is
// signed in and wires Sign out. Resolves with the session's data.
export async function startPage() {
  const signOut = document.getElementById('sign-out');
  signOut.addEventListener('click', async () => {
    signOut.disabled = true;
    try {
      await api('session', { method: 'DELETE' });
    } catch {
      // Even when the server could not be told, the user asked to leave: go to sign-in.
    }
    window.location.assign(SIGN_IN);
  });
  sessionReady = api('session');
  const { data } = await sessionReady;
  csrfToken = data.csrf_token;
  const email = document.getElementById('account-email');
  if (email) {
    email.textContent = data.user.email;
    email.title = data.user.name ? `${data.user.name} <${data.user.email}>` : data.user.email;
  }
  return data;
}

// Reports an error that no form owns in the page's alert region.
export function showPageError(error) {
  if (error instanceof ApiError && error.status === 401) return;
  const region = document.getElementById('page-error');
  if (region) region.textContent = error instanceof Error ? error.message : String(error);
}

export function clearPageError() {
  const region = document.getElementById('page-error');
  if (region) region.textContent = '';
}

// A form's error sentence: clear() before checking, report(message, field) to mark the field
// invalid for screen readers, say why in the form's alert region and move the focus there.
// `field` is an input, or anything with focus() (a group of checkboxes).
export function formErrors(region, fields) {
  return {
    clear() {
      region.textContent = '';
      for (const field of fields) field.removeAttribute('aria-invalid');
    },
    report(message, field) {
      if (field instanceof Element) field.setAttribute('aria-invalid', 'true');
      region.textContent = message;
      field.focus();
    },
  };
}

// h('p', {class: 'x', onclick: f}, 'text', child) — element building that never parses HTML,
// so nothing from the server can inject markup (and the CSP needs no inline anything).
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'checked' || key === 'disabled' || key === 'selected' || key === 'value') {
      node[key] = value;
    } else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

let uniqueCounter = 0;
// An id no other element of the page has, for label/for and aria-* references.
export function uniqueId(prefix) {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium', timeStyle: 'short',
});
// Within the current year the year is left out: tables stay narrow enough for a laptop.
const thisYearFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit',
});
const numberFormat = new Intl.NumberFormat();

export function formatNumber(value) {
  return numberFormat.format(value);
}

export function formatDateTime(iso) {
  const date = new Date(iso);
  const format = date.getFullYear() === new Date().getFullYear() ? thisYearFormat : dateTimeFormat;
  return format.format(date);
}

// A <time> in the reader's time zone, the exact UTC timestamp as its machine value and tooltip.
export function timeElement(iso, whenNull = 'Never') {
  if (!iso) return h('span', { class: 'muted' }, whenNull);
  return h('time', { datetime: iso, title: iso }, formatDateTime(iso));
}

export function plural(count, one, many) {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

// Busy state for a button during a request, so a double click does not send twice.
export async function whileBusy(button, work) {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

// Asks for a confirmation in a modal <dialog>: focus moves into it, Escape or Cancel answers
// false, the confirm button true. The dialog's name is its heading.
export function confirmAction({ title, body, confirmLabel, danger = true }) {
  const titleId = uniqueId('dialog-title');
  const bodyId = uniqueId('dialog-body');
  const cancel = h('button', { type: 'button', class: 'button' }, 'Cancel');
  const confirm = h('button', {
    type: 'submit', class: danger ? 'button button-danger' : 'button button-primary',
    value: 'confirm',
  }, confirmLabel);
  const dialog = h('dialog', {
    class: 'confirm', 'aria-labelledby': titleId, 'aria-describedby': bodyId,
  }, h('form', { method: 'dialog' },
    h('h2', { id: titleId }, title),
    h('p', { id: bodyId, class: 'dialog-body' }, body),
    h('div', { class: 'form-actions' }, cancel, confirm)));
  cancel.addEventListener('click', () => dialog.close('cancel'));
  document.body.append(dialog);
  const opener = document.activeElement;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      const confirmed = dialog.returnValue === 'confirm';
      dialog.remove();
      // Back to where the user was, unless the action removed that element.
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(confirmed);
    }, { once: true });
    dialog.showModal();
    // The safe choice has the focus first.
    cancel.focus();
  });
}

// The box that shows a secret once (a new API key, a webhook signing secret): the value in a
// read-only field, a Copy button, and the warning that it will not be shown again. Focus moves
// to the value so a keyboard or screen-reader user lands on it.
export function secretBox({ heading, label, value, warning, onDone }) {
  const inputId = uniqueId('secret');
  const headingId = uniqueId('secret-heading');
  const status = h('p', { class: 'hint', role: 'status' });
  const input = h('input', {
    id: inputId, type: 'text', readonly: true, value, spellcheck: 'false', autocomplete: 'off',
    'aria-describedby': `${inputId}-warning`,
  });
  const copy = h('button', { type: 'button', class: 'button' }, 'Copy');
  copy.addEventListener('click', async () => {
    status.textContent = (await copyText(input)) ? 'Copied to the clipboard.'
      : 'Copying is not allowed here: the value is selected, press Ctrl+C (⌘C) to copy it.';
  });
  const done = h('button', { type: 'button', class: 'button' }, 'Done');
  const box = h('section', { class: 'secret-box', 'aria-labelledby': headingId },
    h('h3', { id: headingId }, heading),
    h('p', { id: `${inputId}-warning`, class: 'secret-warning' }, warning),
    h('div', { class: 'secret-row' },
      h('label', { for: inputId, class: 'visually-hidden' }, label), input, copy, done),
    status);
  done.addEventListener('click', () => {
    box.remove();
    onDone?.();
  });
  queueMicrotask(() => {
    input.focus();
    input.select();
  });
  return box;
}

async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    // No clipboard permission (an insecure origin, a policy): leave it selected for the user.
    input.focus();
    input.select();
    return false;
  }
}

// Runs refresh() every `ms` while the page is visible, and at once when it becomes visible
// again; never two at a time.
export function refreshWhileVisible(refresh, ms) {
  let running = false;
  const tick = async () => {
    if (document.visibilityState !== 'visible' || running) return;
    running = true;
    try {
      await refresh();
    } finally {
      running = false;
    }
  };
  setInterval(tick, ms);
  document.addEventListener('visibilitychange', tick);
}
