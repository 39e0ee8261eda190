// Webhooks: the workspace's endpoints (GET webhooks), adding one (its secret is in the create
// answer only, so it is shown once), and per endpoint: its event types, enable/disable, delete,
// rotate the secret (shown once), send a test event, and its recent deliveries with their
// attempts and a Redeliver button. The JSON endpoints mirror the API's /webhooks and
// /webhook-deliveries.
import {
  api, confirmAction, formatNumber, formErrors, h, refreshWhileVisible, secretBox, showPageError, startPage,
  timeElement, uniqueId, whileBusy,
} from './dashboard.js';

// The event types an endpoint can subscribe to (docs/api.md, Events); `*` means all of them,
// including types added later.
const EVENT_TYPES = [
  'lead.created', 'lead.updated', 'lead.deleted',
  'contact.created', 'contact.updated', 'contact.deleted',
  'conversation.created', 'conversation.updated', 'message.created',
];
const RECENT_DELIVERIES = 10;

const addForm = document.getElementById('add-form');
const urlInput = document.getElementById('endpoint-url');
const descriptionInput = document.getElementById('endpoint-description');
const addError = document.getElementById('add-error');
const newSecret = document.getElementById('new-secret');
const list = document.getElementById('endpoints');
const listStatus = document.getElementById('endpoints-status');
const endpointsHeading = document.getElementById('endpoints-heading');

// id -> the view of one endpoint (its article and what it shows).
const views = new Map();

// A group of checkboxes: "All event types" and one per type. Checking "All" checks and locks
// the others, which is what `["*"]` means.
function eventTypeChecks(selected) {
  const allId = uniqueId('events-all');
  const all = h('input', {
    type: 'checkbox', id: allId, value: '*', checked: selected.includes('*'),
    'aria-describedby': `${allId}-hint`,
  });
  const boxes = EVENT_TYPES.map((type) => {
    const id = uniqueId('event-type');
    const box = h('input', { type: 'checkbox', id, value: type, checked: selected.includes(type) });
    return { type, box, row: h('div', { class: 'check' }, box, h('label', { for: id, class: 'mono' }, type)) };
  });
  const sync = () => {
    for (const { box } of boxes) {
      box.disabled = all.checked;
      if (all.checked) box.checked = true;
    }
  };
  all.addEventListener('change', sync);
  sync();
  const element = h('div', { class: 'event-checks' },
    h('div', { class: 'check check-all' }, all,
      h('div', {}, h('label', { for: allId }, 'All event types'),
        h('span', { class: 'hint', id: `${allId}-hint` }, 'including types added later'))),
    h('div', { class: 'checks-grid' }, boxes.map(({ row }) => row)));
  return {
    element,
    read: () => (all.checked ? ['*'] : boxes.filter(({ box }) => box.checked).map(({ type }) => type)),
    focus: () => all.focus(),
    reset: () => {
      all.checked = selected.includes('*');
      for (const { type, box } of boxes) box.checked = selected.includes(type);
      sync();
    },
  };
}

const addChecks = eventTypeChecks(['*']);
document.getElementById('add-events').append(addChecks.element);

const addErrors = formErrors(addError, [urlInput]);

addForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  addErrors.clear();
  const url = urlInput.value.trim();
  const events = addChecks.read();
  if (url === '') {
    addErrors.report('Enter the URL that should receive the events.', urlInput);
    return;
  }
  if (events.length === 0) {
    addErrors.report('Choose at least one event type, or all of them.', addChecks);
    return;
  }
  const submit = addForm.querySelector('button[type="submit"]');
  try {
    const { data } = await whileBusy(submit, () => api('webhooks', {
      method: 'POST', body: { url, events, description: descriptionInput.value.trim() },
    }));
    addForm.reset();
    addChecks.reset();
    listStatus.textContent = `Endpoint ${data.url} added.`;
    const { secret, ...endpoint } = data;
    newSecret.replaceChildren(secretBox({
      heading: 'Signing secret of the new endpoint',
      label: 'Signing secret',
      value: secret,
      warning: 'Copy it now: it will not be shown again. Your receiver checks each delivery’s '
        + 'signature with it.',
      onDone: () => urlInput.focus(),
    }));
    addView(endpoint, { first: true });
  } catch (failure) {
    addError.textContent = failure.message;
  }
});

function stateBadge(endpoint) {
  if (endpoint.enabled) return h('span', { class: 'badge badge-ok' }, 'Enabled');
  const why = {
    requested: 'Disabled',
    gone: 'Disabled: the endpoint answered 410 Gone',
    failing: 'Disabled: failing for too long',
  }[endpoint.disabled_reason] ?? 'Disabled';
  return h('span', { class: 'badge badge-warn' }, why);
}

function eventChips(events) {
  if (events.includes('*')) return h('span', {}, 'All event types');
  return h('ul', { class: 'chips' }, events.map((type) => h('li', { class: 'chip' }, type)));
}

function deliveryBadge(delivery) {
  const kind = { succeeded: 'badge-ok', failed: 'badge-danger', pending: 'badge-warn' }[delivery.status];
  const text = delivery.status[0].toUpperCase() + delivery.status.slice(1);
  return h('span', { class: `badge ${kind ?? ''}` }, text);
}

function lastAnswer(delivery) {
  const parts = [];
  if (delivery.last_status_code != null) parts.push(h('span', {}, `HTTP ${delivery.last_status_code}`));
  if (delivery.last_error) parts.push(h('span', { class: 'muted' }, delivery.last_error));
  if (parts.length === 0) return h('span', { class: 'muted' }, '—');
  return h('span', {}, parts.flatMap((part, i) => (i === 0 ? [part] : [h('br'), part])));
}

// One endpoint's card. Its parts are updated in place, so a keyboard user's focus is not thrown
// away by a refresh.
function addView(endpoint, { first = false } = {}) {
  const titleId = uniqueId('endpoint');
  const deliveriesId = uniqueId('deliveries');
  const view = {
    endpoint,
    summary: h('div', { class: 'section' }),
    secretSlot: h('div'),
    status: h('p', { class: 'notice', role: 'status' }),
    error: h('div', { class: 'alert', role: 'alert' }),
    tbody: h('tbody'),
    rows: new Map(), // delivery id -> { delivery, row, cells, detail }
    fastUntil: 0,
    polling: false,
  };
  view.article = h('article', { class: 'card endpoint', 'aria-labelledby': titleId },
    view.summary, view.secretSlot, view.status, view.error,
    h('div', { class: 'section' },
      h('h4', { id: deliveriesId }, 'Recent deliveries'),
      h('div', {
        class: 'table-wrap', role: 'region', 'aria-labelledby': `${deliveriesId} ${titleId}`, tabindex: 0,
      },
        h('table', { class: 'data' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Event'),
            h('th', { scope: 'col' }, 'Status'),
            h('th', { scope: 'col', class: 'num' }, 'Attempts'),
            h('th', { scope: 'col' }, 'Last answer'),
            h('th', { scope: 'col' }, 'Last attempt'),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
          view.tbody))));
  view.titleId = titleId;
  views.set(endpoint.id, view);
  const item = h('li', {}, view.article);
  list.querySelector(':scope > .empty')?.remove();
  if (first) list.prepend(item);
  else list.append(item);
  renderSummary(view);
  view.tbody.append(h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'Loading…')));
  loadDeliveries(view);
  return view;
}

function say(view, sentence) {
  view.error.textContent = '';
  view.status.textContent = sentence;
}

function sayError(view, failure) {
  view.status.textContent = '';
  view.error.textContent = failure.message;
}

function renderSummary(view, focusName) {
  const { endpoint } = view;
  const checks = eventTypeChecks(endpoint.events);
  const editError = h('div', { class: 'alert', role: 'alert' });
  const editForm = h('form', { novalidate: true },
    h('fieldset', { class: 'field' }, h('legend', {}, 'Event types'), checks.element),
    editError,
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit', class: 'button button-primary button-small' }, 'Save event types')));
  const edit = h('details', { class: 'disclosure' }, h('summary', {}, 'Change event types'), editForm);
  editForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    editError.textContent = '';
    const events = checks.read();
    if (events.length === 0) {
      editError.textContent = 'Choose at least one event type, or all of them.';
      checks.focus();
      return;
    }
    try {
      await update(view, { events }, 'Event types saved.');
    } catch (failure) {
      editError.textContent = failure.message;
    }
  });

  const button = (label, onclick, extra = '') => h('button', {
    type: 'button', class: `button button-small ${extra}`, 'data-action': label,
    onclick: (event) => onclick(event.currentTarget),
  }, label);
  const metaItems = [
    h('dt', {}, 'Event types'), h('dd', {}, eventChips(endpoint.events)),
  ];
  if (endpoint.description) {
    metaItems.push(h('dt', {}, 'Description'), h('dd', {}, endpoint.description));
  }
  metaItems.push(h('dt', {}, 'Created'), h('dd', {}, timeElement(endpoint.created_at)));

  view.summary.replaceChildren(
    h('div', { class: 'endpoint-head' },
      h('h3', { id: view.titleId, class: 'endpoint-url' }, endpoint.url), stateBadge(endpoint)),
    h('dl', { class: 'meta' }, metaItems),
    h('div', { class: 'button-group' },
      button('Send test event', (b) => sendTest(view, b)),
      endpoint.enabled
        ? button('Disable', () => update(view, { enabled: false }, 'Endpoint disabled: '
          + 'its deliveries wait until it is enabled again.', 'Enable').catch((f) => sayError(view, f)))
        : button('Enable', () => update(view, { enabled: true }, 'Endpoint enabled.', 'Disable')
          .catch((f) => sayError(view, f))),
      button('Rotate secret', (b) => rotate(view, b)),
      button('Delete', (b) => remove(view, b), 'button-danger-quiet')),
    edit);
  if (focusName) view.summary.querySelector(`[data-action="${focusName}"]`)?.focus();
}

// PATCH, then redraw the summary; `focusName` is the button that takes the focus afterwards
// (Disable becomes Enable: the focus follows it).
async function update(view, body, sentence, focusName) {
  const { data } = await api(`webhooks?id=${encodeURIComponent(view.endpoint.id)}`,
    { method: 'PATCH', body });
  view.endpoint = data;
  renderSummary(view, focusName);
  say(view, sentence);
}

async function sendTest(view, button) {
  try {
    await whileBusy(button, () => api(`webhooks/test?id=${encodeURIComponent(view.endpoint.id)}`,
      { method: 'POST' }));
    say(view, 'Test event sent: a signed webhook.test event is on its way to this endpoint.');
    await loadDeliveries(view);
    pollWhilePending(view);
  } catch (failure) {
    sayError(view, failure);
  }
}

async function rotate(view, button) {
  const confirmed = await confirmAction({
    title: 'Rotate the signing secret?',
    body: `A new secret is created for ${view.endpoint.url}. For 24 hours the previous secret `
      + 'keeps signing beside it, so your receiver can switch without missing a delivery.',
    confirmLabel: 'Rotate secret',
    danger: false,
  });
  if (!confirmed) return;
  try {
    const { data } = await whileBusy(button, () => api(
      `webhooks/rotate-secret?id=${encodeURIComponent(view.endpoint.id)}`, { method: 'POST' }));
    say(view, 'Secret rotated.');
    view.secretSlot.replaceChildren(secretBox({
      heading: 'New signing secret',
      label: 'New signing secret',
      value: data.secret,
      warning: 'Copy it now: it will not be shown again. The previous secret keeps signing '
        + 'for 24 hours.',
      onDone: () => view.summary.querySelector('[data-action="Rotate secret"]')?.focus(),
    }));
  } catch (failure) {
    sayError(view, failure);
  }
}

async function remove(view, button) {
  const confirmed = await confirmAction({
    title: 'Delete this endpoint?',
    body: `${view.endpoint.url} stops receiving events, and its pending deliveries are dropped. `
      + 'This cannot be undone.',
    confirmLabel: 'Delete endpoint',
  });
  if (!confirmed) return;
  try {
    await whileBusy(button, () => api(`webhooks?id=${encodeURIComponent(view.endpoint.id)}`,
      { method: 'DELETE' }));
    views.delete(view.endpoint.id);
    view.article.parentElement.remove();
    listStatus.textContent = `Endpoint ${view.endpoint.url} deleted.`;
    if (views.size === 0) showNoEndpoints();
    // Its buttons are gone with it; the list's heading keeps the keyboard user in place.
    endpointsHeading.focus();
  } catch (failure) {
    sayError(view, failure);
  }
}

function showNoEndpoints() {
  list.replaceChildren(h('li', { class: 'empty' },
    'No endpoints yet. Add one above to receive events as they happen.'));
}

async function loadDeliveries(view) {
  try {
    const { data } = await api(`webhook-deliveries?webhook_id=${encodeURIComponent(view.endpoint.id)}`
      + `&limit=${RECENT_DELIVERIES}`);
    renderDeliveries(view, data);
    return data;
  } catch (failure) {
    sayError(view, failure);
    return [];
  }
}

// Redraws the deliveries table in place: existing rows are updated, new ones inserted, old ones
// removed, so nothing the user is on moves or loses focus.
function renderDeliveries(view, deliveries) {
  const { tbody, rows } = view;
  if (deliveries.length === 0) {
    rows.clear();
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 6, class: 'empty' },
      'No deliveries yet. Send a test event to try the endpoint.')));
    return;
  }
  tbody.querySelector(':scope > tr > td.empty')?.parentElement.remove();
  const wanted = new Set(deliveries.map((d) => d.id));
  for (const [id, entry] of rows) {
    if (!wanted.has(id)) {
      entry.row.remove();
      entry.detail?.remove();
      rows.delete(id);
    }
  }
  let cursor = tbody.firstElementChild;
  for (const delivery of deliveries) {
    let entry = rows.get(delivery.id);
    if (!entry) {
      entry = deliveryRow(view, delivery);
      rows.set(delivery.id, entry);
    } else {
      const changed = entry.delivery.attempt_count !== delivery.attempt_count
        || entry.delivery.status !== delivery.status;
      entry.delivery = delivery;
      fillDeliveryCells(entry);
      if (changed && entry.detail) loadAttempts(view, entry);
    }
    if (entry.row !== cursor) tbody.insertBefore(entry.row, cursor);
    if (entry.detail) entry.row.after(entry.detail);
    cursor = (entry.detail ?? entry.row).nextElementSibling;
  }
}

function deliveryRow(view, delivery) {
  const cells = {
    event: h('th', { scope: 'row', class: 'nowrap' }),
    status: h('td', { class: 'nowrap' }),
    attempts: h('td', { class: 'num' }),
    answer: h('td', {}),
    last: h('td', { class: 'nowrap' }),
  };
  const detailId = uniqueId('attempts');
  const entry = { delivery, cells, detail: null, detailId };
  const toggle = h('button', {
    type: 'button', class: 'button button-small disclosure-button', 'aria-expanded': 'false',
    'aria-controls': detailId,
  }, 'Attempts', h('span', { class: 'caret', 'aria-hidden': 'true' }, '▸'));
  toggle.addEventListener('click', () => {
    if (entry.detail) {
      entry.detail.remove();
      entry.detail = null;
      toggle.setAttribute('aria-expanded', 'false');
      return;
    }
    entry.detail = h('tr', { class: 'detail-row', id: detailId },
      h('td', { colspan: 6 }, h('p', { class: 'muted' }, 'Loading the attempts…')));
    entry.row.after(entry.detail);
    toggle.setAttribute('aria-expanded', 'true');
    loadAttempts(view, entry);
  });
  const redeliver = h('button', { type: 'button', class: 'button button-small' }, 'Redeliver');
  redeliver.addEventListener('click', async () => {
    try {
      const { data } = await whileBusy(redeliver, () => api(
        `webhook-deliveries/retry?id=${encodeURIComponent(entry.delivery.id)}`, { method: 'POST' }));
      entry.delivery = data;
      fillDeliveryCells(entry);
      say(view, `Redelivery of ${data.event_type} scheduled.`);
      pollWhilePending(view);
    } catch (failure) {
      sayError(view, failure);
    }
  });
  entry.row = h('tr', {}, cells.event, cells.status, cells.attempts, cells.answer, cells.last,
    h('td', {}, h('div', { class: 'button-group' }, toggle, redeliver)));
  fillDeliveryCells(entry);
  return entry;
}

function fillDeliveryCells({ delivery, cells }) {
  cells.event.replaceChildren(h('code', { title: `event ${delivery.event_id}` }, delivery.event_type));
  const status = [deliveryBadge(delivery)];
  if (delivery.status === 'pending' && delivery.next_attempt_at && delivery.attempt_count > 0) {
    status.push(h('br'), h('span', { class: 'hint' }, 'next ', timeElement(delivery.next_attempt_at)));
  }
  cells.status.replaceChildren(...status);
  cells.attempts.textContent = formatNumber(delivery.attempt_count);
  cells.answer.replaceChildren(lastAnswer(delivery));
  cells.last.replaceChildren(timeElement(delivery.last_attempt_at, 'Not yet'));
}

async function loadAttempts(view, entry) {
  try {
    const { data } = await api(`webhook-deliveries?id=${encodeURIComponent(entry.delivery.id)}`);
    if (!entry.detail) return;
    const attempts = data.attempts ?? [];
    const content = attempts.length === 0
      ? h('p', { class: 'muted' }, 'No attempt yet: the first one is on its way.')
      : h('div', { class: 'table-wrap' }, h('table', { class: 'data' },
        h('caption', {}, `Attempts to deliver ${data.event_type}, oldest first`),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, 'Attempted'),
          h('th', { scope: 'col' }, 'Answer'),
          h('th', { scope: 'col', class: 'num' }, 'Duration'),
          h('th', { scope: 'col' }, 'Error'),
          h('th', { scope: 'col' }, 'Response'))),
        h('tbody', {}, attempts.map((attempt) => h('tr', {},
          h('th', { scope: 'row', class: 'nowrap' }, timeElement(attempt.attempted_at)),
          h('td', { class: 'nowrap' }, attempt.status_code == null ? h('span', { class: 'muted' }, 'none')
            : `HTTP ${attempt.status_code}`),
          h('td', { class: 'num nowrap' }, `${formatNumber(attempt.duration_ms)} ms`),
          h('td', {}, attempt.error ?? h('span', { class: 'muted' }, '—')),
          h('td', {}, attempt.response_excerpt
            ? h('pre', { class: 'excerpt', tabindex: 0 }, attempt.response_excerpt)
            : h('span', { class: 'muted' }, 'empty')))))));
    entry.detail.firstElementChild.replaceChildren(content);
  } catch (failure) {
    sayError(view, failure);
  }
}

// After a test or a redelivery the outcome comes within a second or so: look every second for
// 20 s, or until no delivery of the endpoint is pending.
function pollWhilePending(view) {
  view.fastUntil = Date.now() + 20_000;
  if (view.polling) return;
  view.polling = true;
  const tick = async () => {
    const deliveries = await loadDeliveries(view);
    const pending = deliveries.some((d) => d.status === 'pending' && d.attempt_count === 0)
      || deliveries.some((d) => d.status === 'pending' && d.next_attempt_at
        && Date.parse(d.next_attempt_at) <= Date.now() + 1000);
    if (pending && Date.now() < view.fastUntil && views.has(view.endpoint.id)) {
      setTimeout(tick, 1000);
    } else {
      view.polling = false;
    }
  };
  setTimeout(tick, 700);
}

async function loadEndpoints() {
  const { data } = await api('webhooks');
  list.replaceChildren();
  views.clear();
  if (data.length === 0) showNoEndpoints();
  for (const endpoint of data) addView(endpoint);
}

try {
  await startPage();
  endpointsHeading.setAttribute('tabindex', '-1');
  await loadEndpoints();
  // Deliveries change on their own (retries, new events): a slower look at every endpoint.
  refreshWhileVisible(() => Promise.all([...views.values()].map(loadDeliveries)), 5000);
} catch (failure) {
  showPageError(failure);
}
