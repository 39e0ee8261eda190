// Usage: GET usage (?key= for one key) every 2 s while the page is visible, so a request made
// with a key shows within the 5 s the spec promises (the server flushes its counters every
// second). Two uPlot charts, each with a text summary and a table as its text alternative.
import {
  api, clearPageError, formatNumber, h, plural, refreshWhileVisible, showPageError, startPage,
} from './dashboard.js';

const select = document.getElementById('usage-key');
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const hourFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit',
});
const dayFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium', timeZone: 'UTC',
});

// Stacked bars, drawn tallest first: each series holds the running total of the kinds below it,
// so the colours that remain visible are the kinds' own shares. Top to bottom, as in the legend.
const KINDS = [
  { field: 'rate_limited', label: 'Rate-limited', color: '#e5a000' },
  { field: 'error', label: 'Errors', color: '#d92d20' },
  { field: 'success', label: 'Succeeded', color: '#4f5bd5' },
];

let selectedKey = new URLSearchParams(window.location.search).get('key') ?? '';
let lastAnswer = '';
// Answers can cross (a refresh in flight when the key changes): only the latest request renders.
let latestRequest = 0;

const charts = {
  hourly: makeChart({
    container: document.getElementById('hourly-chart'),
    step: 3600,
    utc: false,
    label: (seconds) => hourFormat.format(new Date(seconds * 1000)),
  }),
  daily: makeChart({
    container: document.getElementById('daily-chart'),
    step: 86400,
    // Days are UTC days: the axis says the same dates as the table.
    utc: true,
    label: (seconds) => dayFormat.format(new Date(seconds * 1000)),
  }),
};

function makeChart({ container, step, utc, label }) {
  const state = { plot: null, raw: { success: [], error: [], rate_limited: [] }, label };
  if (typeof window.uPlot !== 'function') return state;
  const uPlot = window.uPlot;
  const bars = uPlot.paths.bars({ size: [0.75, 40], align: 0 });
  const height = () => (container.clientWidth < 500 ? 200 : 240);
  const options = {
    width: Math.max(container.clientWidth, 280),
    height: height(),
    padding: [12, 8, 0, 0],
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      // Half a step of room on each side, so the first and last bars are whole.
      x: { time: true, range: (u, min, max) => [min - step / 2, max + step / 2] },
      y: { range: (u, min, max) => [0, max <= 1 ? 1 : Math.ceil(max * 1.1)] },
    },
    axes: [
      { stroke: '#555f6f', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#dfe3e8' } },
      {
        stroke: '#555f6f', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#dfe3e8' },
        // Whole requests only.
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5,
          5e5, 1e6, 2e6, 5e6, 1e7],
        values: (u, splits) => splits.map(formatNumber),
        size: 56,
      },
    ],
    series: [
      { value: (u, seconds) => (seconds == null ? '–' : label(seconds)) },
      ...KINDS.map((kind) => ({
        label: kind.label,
        fill: kind.color,
        stroke: kind.color,
        width: 0,
        paths: bars,
        points: { show: false },
        // The legend shows the kind's own count, not the running total the bar is drawn with.
        value: (u, total, series, index) => (index == null ? '–'
          : formatNumber(state.raw[kind.field][index] ?? 0)),
      })),
    ],
  };
  if (utc) options.tzDate = (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');
  state.plot = new uPlot(options, [[], [], [], []], container);
  new ResizeObserver(() => {
    state.plot.setSize({ width: Math.max(container.clientWidth, 280), height: height() });
  }).observe(container);
  return state;
}

function updateChart(chart, buckets) {
  const sorted = [...buckets].sort((a, b) => a.start.localeCompare(b.start));
  chart.raw = {
    success: sorted.map((b) => b.success),
    error: sorted.map((b) => b.error),
    rate_limited: sorted.map((b) => b.rate_limited),
  };
  if (!chart.plot) return;
  const x = sorted.map((b) => Date.parse(b.start) / 1000);
  const below = { rate_limited: ['success', 'error', 'rate_limited'],
    error: ['success', 'error'], success: ['success'] };
  const stacked = KINDS.map((kind) => sorted.map((b) => below[kind.field]
    .reduce((sum, field) => sum + b[field], 0)));
  chart.plot.setData([x, ...stacked]);
}

// The chart's text alternative: one sentence of totals and the busiest bucket.
function summary(buckets, period, unit, label) {
  const sum = (field) => buckets.reduce((total, b) => total + b[field], 0);
  const [success, error, limited] = [sum('success'), sum('error'), sum('rate_limited')];
  const total = success + error + limited;
  if (total === 0) return `No requests in the ${period}.`;
  let busiest = buckets[0];
  for (const b of buckets) {
    if (b.success + b.error + b.rate_limited > busiest.success + busiest.error
      + busiest.rate_limited) busiest = b;
  }
  const busiestTotal = busiest.success + busiest.error + busiest.rate_limited;
  return `${plural(total, 'request', 'requests')} in the ${period}: `
    + `${formatNumber(success)} succeeded, ${plural(error, 'error', 'errors')}, `
    + `${formatNumber(limited)} rate-limited. Busiest ${unit}: `
    + `${label(Date.parse(busiest.start) / 1000)}, with ${formatNumber(busiestTotal)}.`;
}

function bucketRows(buckets, label) {
  // Newest first: the recent rows are the ones people look for.
  return [...buckets].sort((a, b) => b.start.localeCompare(a.start)).map((b) => h('tr', {},
    h('th', { scope: 'row', class: 'nowrap' },
      h('time', { datetime: b.start }, label(Date.parse(b.start) / 1000))),
    h('td', { class: 'num' }, formatNumber(b.success)),
    h('td', { class: 'num' }, formatNumber(b.error)),
    h('td', { class: 'num' }, formatNumber(b.rate_limited))));
}

function render(usage) {
  document.getElementById('stat-today').textContent = formatNumber(usage.today);
  document.getElementById('stat-week').textContent = formatNumber(usage.this_week);
  document.getElementById('stat-month').textContent = formatNumber(usage.this_month);
  document.getElementById('stat-errors').textContent = percent.format(usage.error_rate);
  document.getElementById('stat-limited').textContent = formatNumber(usage.rate_limited);

  const endpoints = Object.entries(usage.by_endpoint).sort((a, b) => b[1] - a[1]
    || a[0].localeCompare(b[0]));
  const monthTotal = endpoints.reduce((total, [, count]) => total + count, 0);
  const endpointsBody = document.getElementById('endpoints-body');
  if (endpoints.length === 0) {
    endpointsBody.replaceChildren(h('tr', {}, h('td', { colspan: 3, class: 'empty' },
      'No requests this month.')));
  } else {
    endpointsBody.replaceChildren(...endpoints.map(([endpoint, count]) => h('tr', {},
      h('th', { scope: 'row' }, h('code', {}, endpoint)),
      h('td', { class: 'num' }, formatNumber(count)),
      h('td', { class: 'num' }, percent.format(monthTotal === 0 ? 0 : count / monthTotal)))));
  }

  updateChart(charts.hourly, usage.hourly);
  updateChart(charts.daily, usage.daily);
  document.getElementById('hourly-summary').textContent = summary(usage.hourly,
    'last 48 hours', 'hour', charts.hourly.label);
  document.getElementById('daily-summary').textContent = summary(usage.daily,
    'last 30 days', 'day', charts.daily.label);
  document.getElementById('hourly-body').replaceChildren(...bucketRows(usage.hourly,
    charts.hourly.label));
  document.getElementById('daily-body').replaceChildren(...bucketRows(usage.daily,
    charts.daily.label));
}

async function refresh() {
  const request = ++latestRequest;
  try {
    const query = selectedKey ? `?key=${encodeURIComponent(selectedKey)}` : '';
    const { data } = await api(`usage${query}`);
    if (request !== latestRequest) return;
    clearPageError();
    // Redrawing identical numbers every 2 s would only reset a reader's place in the tables.
    const answer = JSON.stringify(data);
    if (answer === lastAnswer) return;
    lastAnswer = answer;
    render(data);
  } catch (failure) {
    showPageError(failure);
  }
}

async function loadKeyChoices() {
  const { data: keys } = await api('keys');
  select.append(...keys.map((key) => h('option', { value: key.id },
    `${key.name} (${key.prefix}…)${key.revoked_at ? ', revoked' : ''}`)));
  if (selectedKey && !keys.some((key) => key.id === selectedKey)) selectedKey = '';
  select.value = selectedKey;
}

select.addEventListener('change', () => {
  selectedKey = select.value;
  // The choice survives a reload and can be shared as a link.
  const url = new URL(window.location.href);
  if (selectedKey) url.searchParams.set('key', selectedKey);
  else url.searchParams.delete('key');
  window.history.replaceState(null, '', url);
  refresh();
});

try {
  await startPage();
  await loadKeyChoices();
  await refresh();
  refreshWhileVisible(refresh, 2000);
} catch (failure) {
  showPageError(failure);
}
