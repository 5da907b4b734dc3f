// The single page: state in the URL fragment (#view?framework=…&from=…), one render function per view, and live
// updates from the server's event stream (/api/events): on a change the visible view is fetched again.
import { get } from './api.js';
import { el, text } from './dom.js';
import * as views from './views.js';

const VIEWS = ['overview', 'trends', 'fixes', 'alerts', 'issues', 'issue', 'similar'];
const FILTERS = ['framework', 'release', 'from', 'to', 'minConfidence'];
let catalog = { frameworks: [], dimensions: [] };
let rendering = Promise.resolve();
let pending = false;

/** The state of the page as the fragment says. */
function state() {
  const hash = location.hash.replace(/^#/, '');
  const [name, query] = hash.split('?');
  const params = new URLSearchParams(query || '');
  const filters = {};
  for (const key of FILTERS) {
    if (params.get(key)) filters[key] = params.get(key);
  }
  return {
    view: VIEWS.includes(name) ? name : 'overview',
    filters,
    dimension: params.get('dimension') || 'symptom',
    bucket: params.get('bucket') || 'month',
    page: Number.parseInt(params.get('page') || '0', 10) || 0,
    issue: params.get('id'),
  };
}

/** Moves to a view with new parameters (the filters carry over unless replaced). */
function go(view, changes = {}) {
  const s = state();
  const params = new URLSearchParams();
  const merged = { ...s.filters, dimension: s.dimension, bucket: s.bucket, ...changes };
  if (merged.dimension === 'symptom') delete merged.dimension;
  if (merged.bucket === 'month') delete merged.bucket;
  for (const [key, value] of Object.entries(merged)) {
    if (value !== null && value !== undefined && value !== '' && value !== 0) params.set(key, value);
  }
  const qs = params.toString();
  location.hash = view + (qs ? '?' + qs : '');
}

function showError(error) {
  const box = document.getElementById('error');
  if (!error) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = error.parameter ? 'Filter ' + error.parameter + ': ' + error.message : error.message;
}

function syncControls(s) {
  for (const a of document.querySelectorAll('#nav a')) {
    a.classList.toggle('active', a.dataset.view === s.view || (s.view === 'issue' && a.dataset.view === 'issues'));
  }
  for (const v of VIEWS) document.getElementById('view-' + v).hidden = v !== s.view;
  const framework = document.getElementById('f-framework');
  framework.value = s.filters.framework || '';
  fillReleases(s.filters.framework || (s.filters.release ? s.filters.release.split('@')[0] : ''));
  document.getElementById('f-release').value = s.filters.release || '';
  document.getElementById('f-from').value = (s.filters.from || '').slice(0, 10);
  document.getElementById('f-to').value = (s.filters.to || '').slice(0, 10);
  syncConfidence(s.filters.minConfidence || '');
  document.getElementById('t-dimension').value = s.dimension;
  document.getElementById('t-bucket').value = s.bucket;
  const parts = [];
  parts.push(s.filters.framework || 'all frameworks');
  if (s.filters.release) parts.push('release ' + s.filters.release);
  if (s.filters.from || s.filters.to) parts.push((s.filters.from || '…') + ' to ' + (s.filters.to || 'now'));
  const confidence = document.getElementById('f-confidence');
  parts.push(confidence.value === ''
    ? 'estimates with 90% intervals'
    : confidence.value === 'all' ? 'counting every label' : 'counting ' + confidence.selectedOptions[0].textContent);
  text('scope-summary', 'Showing ' + parts.join(', '));
}

/**
 * The label switch: no labels counted (estimates, the default), "only confident labels" (the server's bar), "all
 * labels", or a bar given in the URL.
 */
function syncConfidence(value) {
  const select = document.getElementById('f-confidence');
  const standard = select.querySelector('option[value="default"]');
  if (catalog.confidence) {
    // The server's default bar; a server set to count every label says so rather than "confident".
    standard.textContent = catalog.confidence.mode === 'all'
      ? 'all labels (server default)'
      : 'only confident labels (' + catalog.confidence.text + ')';
  }
  for (const o of [...select.options]) {
    if (o.dataset.custom) o.remove();
  }
  if (value && ![...select.options].some((o) => o.value === value)) {
    select.append(el('option', { value, dataset: { custom: 'true' } }, 'labels with confidence ≥ ' + value));
  }
  select.value = value;
}

function fillReleases(frameworkName) {
  const select = document.getElementById('f-release');
  const frameworks = frameworkName ? catalog.frameworks.filter((f) => f.name === frameworkName) : catalog.frameworks;
  const options = [el('option', { value: '' }, 'Any release')];
  for (const f of frameworks) {
    for (const r of f.releases.slice(0, 200)) {
      options.push(el('option', { value: r.id }, r.id + ' (' + String(r.publishedAt || '').slice(0, 10) + ')'));
    }
  }
  select.replaceChildren(...options);
}

/** Renders the view of the fragment; calls made while one runs collapse into one more render. */
function render() {
  if (pending) return rendering;
  pending = true;
  rendering = rendering.then(async () => {
    pending = false;
    const s = state();
    const hash = location.hash;
    syncControls(s);
    try {
      await Promise.all([views[s.view](s, catalog), views.labelMix(s)]);
      showError(null);
      document.body.dataset.rendered = s.view;
      document.body.dataset.renderedHash = hash;
      document.body.dataset.renderCount = String(Number(document.body.dataset.renderCount || 0) + 1);
    } catch (error) {
      showError(error);
      document.body.dataset.rendered = 'error';
    }
  });
  return rendering;
}

function listen() {
  const live = document.getElementById('live');
  if (!('EventSource' in window)) {
    live.textContent = 'refresh every 10 s';
    setInterval(render, 10000);
    return;
  }
  const events = new EventSource('/api/events');
  window.addEventListener('pagehide', () => events.close());
  events.addEventListener('hello', () => {
    live.dataset.state = 'live';
    live.textContent = 'live';
    // Anything written between the first load and the subscription is picked up here.
    render().then(() => { document.body.dataset.live = 'ready'; });
  });
  events.addEventListener('change', () => {
    live.dataset.state = 'live';
    live.textContent = 'live · updated ' + new Date().toLocaleTimeString('en-GB');
    document.body.dataset.changes = String(Number(document.body.dataset.changes || 0) + 1);
    refreshCatalog().then(render);
  });
  events.addEventListener('error', () => {
    live.dataset.state = 'reconnecting';
    live.textContent = 'reconnecting…';
  });
}

async function refreshCatalog() {
  catalog = await get('filters');
  const select = document.getElementById('f-framework');
  const current = select.value;
  select.replaceChildren(el('option', { value: '' }, 'All frameworks'),
    ...catalog.frameworks.map((f) => el('option', { value: f.name }, f.name + ' (' + f.issues + ')')));
  select.value = current;
  const dimension = document.getElementById('t-dimension');
  if (dimension.options.length === 0) {
    dimension.replaceChildren(...catalog.dimensions.map((d) => el('option', { value: d }, d)));
  }
}

function wire() {
  window.addEventListener('hashchange', render);
  const current = () => state().view === 'issue' ? 'issues' : state().view;
  document.getElementById('f-framework').addEventListener('change', (e) => go(current(), { framework: e.target.value, release: '', page: 0 }));
  document.getElementById('f-release').addEventListener('change', (e) => go(current(), { release: e.target.value, page: 0 }));
  document.getElementById('f-from').addEventListener('change', (e) => go(current(), { from: e.target.value, page: 0 }));
  document.getElementById('f-to').addEventListener('change', (e) => go(current(), { to: e.target.value, page: 0 }));
  document.getElementById('f-confidence').addEventListener('change', (e) => go(current(), { minConfidence: e.target.value, page: 0 }));
  document.getElementById('f-reset').addEventListener('click', () => go(current(), { framework: '', release: '', from: '', to: '', minConfidence: '', page: 0 }));
  document.getElementById('t-dimension').addEventListener('change', (e) => go('trends', { dimension: e.target.value }));
  document.getElementById('t-bucket').addEventListener('change', (e) => go('trends', { bucket: e.target.value }));
  document.getElementById('issues-prev').addEventListener('click', () => go('issues', { page: Math.max(0, state().page - 1) }));
  document.getElementById('issues-next').addEventListener('click', () => go('issues', { page: state().page + 1 }));
  document.getElementById('similar-form').addEventListener('submit', (e) => {
    e.preventDefault();
    views.searchSimilar().then(() => {
      showError(null);
      document.body.dataset.searched = String(Number(document.body.dataset.searched || 0) + 1);
    }, showError);
  });
}

async function start() {
  wire();
  try {
    await refreshCatalog();
  } catch (error) {
    showError(error);
  }
  await render();
  listen();
}

start();
