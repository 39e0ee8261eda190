// API keys: the workspace's keys (GET keys, newest first), creating one (POST keys; the key
// itself is in that answer only, so it is shown once) and revoking one after a confirmation.
import {
  api, confirmAction, formErrors, h, secretBox, showPageError, startPage, timeElement, whileBusy,
} from './dashboard.js';

const form = document.getElementById('create-form');
const nameInput = document.getElementById('key-name');
const readBox = document.getElementById('scope-read');
const writeBox = document.getElementById('scope-write');
const ipsInput = document.getElementById('key-ips');
const createError = document.getElementById('create-error');
const newKey = document.getElementById('new-key');
const tbody = document.getElementById('keys-body');
const status = document.getElementById('keys-status');

async function loadKeys() {
  const { data } = await api('keys');
  renderKeys(data);
}

function renderKeys(keys) {
  if (keys.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 8, class: 'empty' },
      'No keys yet. Create one above to call the API.')));
    return;
  }
  tbody.replaceChildren(...keys.map(keyRow));
}

function keyRow(key) {
  const revoked = Boolean(key.revoked_at);
  const ips = key.allowed_ips.length === 0 ? h('span', { class: 'muted' }, 'Any address')
    : h('ul', { class: 'ip-list' }, key.allowed_ips.map((ip) => h('li', {}, ip)));
  const state = revoked
    ? h('span', {}, h('span', { class: 'badge badge-danger' }, 'Revoked'), h('br'),
      h('span', { class: 'hint' }, timeElement(key.revoked_at)))
    : h('span', { class: 'badge badge-ok' }, 'Active');
  const action = revoked ? ''
    : h('button', {
      type: 'button', class: 'button button-small button-danger-quiet',
      onclick: (event) => revoke(key, event.currentTarget),
    }, 'Revoke');
  return h('tr', { class: revoked ? 'revoked' : undefined },
    h('th', { scope: 'row' }, key.name),
    h('td', { class: 'nowrap' }, h('code', {}, key.prefix)),
    h('td', {}, key.scopes.map((scope) => scope[0].toUpperCase() + scope.slice(1)).join(', ')),
    h('td', {}, ips),
    h('td', { class: 'nowrap' }, timeElement(key.created_at)),
    h('td', { class: 'nowrap' }, timeElement(key.last_used_at)),
    h('td', { class: 'nowrap' }, state),
    h('td', {}, action));
}

async function revoke(key, button) {
  const confirmed = await confirmAction({
    title: `Revoke “${key.name}”?`,
    body: `Requests with the key ${key.prefix}… are refused from the very next one, on every `
      + 'server. This cannot be undone.',
    confirmLabel: 'Revoke key',
  });
  if (!confirmed) return;
  try {
    await whileBusy(button, () => api(`keys/revoke?id=${encodeURIComponent(key.id)}`,
      { method: 'POST' }));
    status.textContent = `Key “${key.name}” revoked.`;
    await loadKeys();
    // The row's button is gone; keep the keyboard user in the table rather than at the top.
    document.getElementById('keys-heading').focus();
  } catch (failure) {
    showPageError(failure);
  }
}

const createErrors = formErrors(createError, [nameInput, readBox]);

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  createErrors.clear();
  const name = nameInput.value.trim();
  const scopes = [readBox, writeBox].filter((box) => box.checked).map((box) => box.value);
  const allowedIps = ipsInput.value.split('\n').map((line) => line.trim())
    .filter((line) => line !== '');
  if (name === '') {
    createErrors.report('Give the key a name.', nameInput);
    return;
  }
  if (scopes.length === 0) {
    createErrors.report('Choose at least one scope: Read, Write or both.', readBox);
    return;
  }
  const submit = form.querySelector('button[type="submit"]');
  try {
    const { data } = await whileBusy(submit, () => api('keys', {
      method: 'POST', body: { name, scopes, allowed_ips: allowedIps },
    }));
    form.reset();
    status.textContent = `Key “${data.name}” created.`;
    newKey.replaceChildren(secretBox({
      heading: `Your new API key “${data.name}”`,
      label: 'New API key',
      value: data.key,
      warning: 'Copy it now and keep it somewhere safe: it will not be shown again.',
      onDone: () => nameInput.focus(),
    }));
    await loadKeys();
  } catch (failure) {
    createError.textContent = failure.message;
  }
});

try {
  await startPage();
  // The heading receives focus after a revoke (the row's button disappears).
  document.getElementById('keys-heading').setAttribute('tabindex', '-1');
  await loadKeys();
} catch (failure) {
  showPageError(failure);
}
