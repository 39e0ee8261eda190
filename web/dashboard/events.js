// Events: the workspace's recent events, newest first, each with its JSON. GET events is the
// API's feed, oldest first; its newest events are on the last page (limit=1 gives the count,
// as in docs/api.md "Syncing a workspace"), older pages come on demand, and new events are
// followed with `after` every 5 s while the page is visible.
import {
  api, ApiError, clearPageError, formatDateTime, h, plural, refreshWhileVisible, showPageError,
  startPage,
} from './dashboard.js';

const PAGE_SIZE = 25;
const select = document.getElementById('event-type');
const list = document.getElementById('events');
const older = document.getElementById('older');
const status = document.getElementById('events-status');

let type = new URLSearchParams(window.location.search).get('type') ?? '';
let newestId = null;      // the newest event shown: new ones are asked for `after` it
let olderPage = 0;        // the next older page of the feed, 0 when there is none
const shown = new Set();  // ids on the page: offset pages may overlap when old events expire
let generation = 0;       // a type change makes answers to earlier requests stale

const typeQuery = () => (type ? `&type=${encodeURIComponent(type)}` : '');

function subject(event) {
  const data = event.data ?? {};
  if (event.type.startsWith('lead.')) {
    return [data.visitor_name, data.visitor_company].filter(Boolean).join(', ');
  }
  if (event.type.startsWith('contact.')) {
    const name = [data.first_name, data.last_name].filter(Boolean).join(' ');
    return name || data.email || '';
  }
  if (event.type.startsWith('conversation.')) return data.visitor_name ?? '';
  if (event.type === 'message.created' && data.conversation_id) {
    return `in conversation ${data.conversation_id}`;
  }
  return '';
}

function eventItem(event) {
  return h('li', { 'data-event-id': event.id }, h('details', {},
    h('summary', {},
      h('span', { class: 'event-type' }, event.type),
      h('span', { class: 'event-subject' }, subject(event)),
      h('time', { class: 'event-time', datetime: event.timestamp, title: event.timestamp },
        formatDateTime(event.timestamp))),
    // Focusable, so a keyboard user can scroll a long payload.
    h('pre', { class: 'json', tabindex: 0 }, h('code', {}, JSON.stringify(event, null, 2)))));
}

function showEmpty() {
  list.replaceChildren(h('li', { class: 'empty' }, type
    ? `No ${type} events are kept.` : 'No events are kept yet.'));
}

async function loadLatest() {
  const mine = ++generation;
  const head = await api(`events?limit=1${typeQuery()}`);
  if (mine !== generation) return;
  const total = head.pagination.total_count;
  shown.clear();
  if (total === 0) {
    newestId = null;
    olderPage = 0;
    older.hidden = true;
    showEmpty();
    status.textContent = type ? `No ${type} events.` : 'No events yet.';
    return;
  }
  const last = Math.ceil(total / PAGE_SIZE);
  let events = (await api(`events?limit=${PAGE_SIZE}&page=${last}${typeQuery()}`)).data;
  olderPage = last - 1;
  // A nearly empty last page would show only a few: take the page before it too.
  if (events.length < 10 && olderPage >= 1) {
    events = (await api(`events?limit=${PAGE_SIZE}&page=${olderPage}${typeQuery()}`)).data
      .concat(events);
    olderPage -= 1;
  }
  if (mine !== generation) return;
  list.replaceChildren();
  if (events.length === 0) {
    newestId = null;
    showEmpty();
  } else {
    newestId = events.at(-1).id;
    for (const event of events.reverse()) {
      shown.add(event.id);
      list.append(eventItem(event));
    }
  }
  older.hidden = olderPage < 1;
  status.textContent = shown.size >= total ? `${plural(total, 'event', 'events')}.`
    : `The newest ${plural(shown.size, 'event', 'events')} of ${total.toLocaleString()}.`;
}

async function loadOlder() {
  if (olderPage < 1) return;
  const mine = generation;
  const { data } = await api(`events?limit=${PAGE_SIZE}&page=${olderPage}${typeQuery()}`);
  if (mine !== generation) return;
  olderPage -= 1;
  let added = 0;
  for (const event of data.reverse()) {
    if (shown.has(event.id)) continue;
    shown.add(event.id);
    list.append(eventItem(event));
    added += 1;
  }
  older.hidden = olderPage < 1;
  status.textContent = `${plural(added, 'older event', 'older events')} added below.`;
}

// New events since the newest shown, prepended in order so the newest ends up on top.
async function followFeed() {
  if (newestId === null) {
    await loadLatest();
    return;
  }
  const mine = generation;
  let added = 0;
  for (;;) {
    let page;
    try {
      page = await api(`events?after=${encodeURIComponent(newestId)}&limit=100${typeQuery()}`);
    } catch (failure) {
      // The newest shown event expired (400): start again from the current newest.
      if (failure instanceof ApiError && failure.status === 400) {
        await loadLatest();
        return;
      }
      throw failure;
    }
    if (mine !== generation) return;
    list.querySelector(':scope > .empty')?.remove();
    for (const event of page.data) {
      newestId = event.id;
      if (shown.has(event.id)) continue;
      shown.add(event.id);
      list.prepend(eventItem(event));
      added += 1;
    }
    if (!page.pagination?.has_more) break;
  }
  if (added > 0) status.textContent = `${plural(added, 'new event', 'new events')} at the top.`;
}

select.addEventListener('change', async () => {
  type = select.value;
  const url = new URL(window.location.href);
  if (type) url.searchParams.set('type', type);
  else url.searchParams.delete('type');
  window.history.replaceState(null, '', url);
  try {
    await loadLatest();
    clearPageError();
  } catch (failure) {
    showPageError(failure);
  }
});

older.addEventListener('click', async () => {
  older.disabled = true;
  try {
    await loadOlder();
  } catch (failure) {
    showPageError(failure);
  } finally {
    older.disabled = false;
  }
});

try {
  await startPage();
  if ([...select.options].some((option) => option.value === type)) select.value = type;
  else type = '';
  await loadLatest();
  refreshWhileVisible(async () => {
    try {
      await followFeed();
      clearPageError();
    } catch (failure) {
      showPageError(failure);
    }
  }, 5000);
} catch (failure) {
  showPageError(failure);
}
