// One render function per view. Each fetches its data for the current state and fills the view's elements.
import { get, post } from './api.js';
import { draw, color } from './charts.js';
import { el, fill, text, githubLink, issueLink, percent, day, num } from './dom.js';

const FIGURE_NAMES = {
  bugs: 'Bug reports',
  openBugs: 'Still open',
  medianDaysToClose: 'Median days to close (closed bug reports)',
  smallFixShare: 'Small fixes (≤ 10 changed lines) among merged changes fixing bug reports',
};

/** The tooltip of an estimate: its method and what it rests on. */
function methodTitle(r) {
  if (!r || !r.method) return null;
  return r.method + (r.basis ? ' — ' + r.basis : '');
}

/** An estimate with its interval, or "—" with the reason where there is none. */
function figureText(value, low, high, note) {
  if (value === null || value === undefined) return '— (' + (note || 'no figure') + ')';
  return estimateText(value, low, high);
}

/** A share as a whole percentage, e.g. 71%. */
function wholePercent(share) {
  return share === null || share === undefined ? '—' : Math.round(share * 100) + '%';
}

/**
 * How many issues a count covers, e.g. "312 bug reports, 71% labelled with ≥ 90% precision": the issues in scope and
 * the share whose labels pass the confidence bar of the response's scope (every label when the switch says so).
 */
function coverageText(coverage, confidence, noun) {
  if (!coverage || coverage.inScope === null || coverage.inScope === undefined || coverage.inScope === 0) {
    return 'No ' + noun + ' in scope';
  }
  const how = confidence.mode === 'all' ? ' labelled (all labels counted)' : ' labelled with ' + confidence.text;
  return num(coverage.inScope) + ' ' + noun + ', ' + wholePercent(coverage.coverage) + how;
}

export async function overview(state) {
  const filters = state.filters;
  const [headline, share, releases, shifts, studies] = await Promise.all([
    get('headline', filters),
    get('distributed-share', filters),
    get('releases', filters),
    get('release-shifts', { framework: filters.framework, minConfidence: filters.minConfidence }),
    get('studies', filters),
  ]);
  renderStudies(studies);
  renderHeadline(headline);
  renderDistributedShare(share, state);
  renderReleases(releases, shifts);
}

/** The headline figures: bug reports and open ones in scope, estimates with their intervals by default. */
function renderHeadline(headline) {
  const b = headline.bugs || {};
  const closing = headline.closing || {};
  const estimated = headline.mode === 'estimate';
  const how = (r) => (estimated
    ? (r && r.method ? 'estimated (' + r.method + ')' : '')
    : 'labels counted (the "Labels counted" switch)');
  const rows = [
    { metric: 'bugs', text: figureText(b.estimate, b.estimateLow, b.estimateHigh, b.note), row: b, coverage: true },
    { metric: 'openBugs', text: figureText(b.openEstimate, b.openLow, b.openHigh, b.note), row: b, coverage: true },
    { metric: 'medianDaysToClose', row: closing.medianDaysToClose,
      text: closingText(closing.medianDaysToClose, (v) => v.toFixed(1) + ' days') },
    { metric: 'smallFixShare', row: closing.smallFixShare,
      text: closingText(closing.smallFixShare, (v) => (v * 100).toFixed(1) + '%') },
  ];
  document.querySelector('#headline-table tbody').replaceChildren(
    ...rows.map((f) =>
      el('tr', { dataset: { metric: f.metric } },
        el('td', {}, FIGURE_NAMES[f.metric]),
        el('td', { class: 'num this', title: methodTitle(f.row) }, f.text),
        el('td', { class: 'muted small method' }, how(f.row)),
        el('td', { class: 'num coverage', title: f.coverage ? num(b.labelled) + ' of ' + num(b.inScope) + ' issues' : null },
          f.coverage ? wholePercent(b.coverage) : (f.row && f.row.basis !== null && f.row.basis !== undefined
            ? 'over ≈ ' + num(f.row.basis) : '')))));
  text('headline-coverage', coverageText(headline.coverage, headline.scope.confidence, 'issues'));
  text('headline-studies', 'Seeds from the codebook: ' +
    headline.studies.map((s) => s.id + ' — ' + s.title + ' (' + s.reference + '; ' + s.scope + ')').join(' · '));
}

/** A closing figure (a median, a share) with its interval, or "—" with the reason. */
function closingText(r, format) {
  if (!r) return '—';
  if (r.estimate === null || r.estimate === undefined) return '— (' + (r.note || 'no figure') + ')';
  if (r.low === null || r.low === undefined) return format(r.estimate);
  return format(r.estimate) + ' (' + format(r.low) + '–' + format(r.high) + ')';
}

/** The distributed-specific share of this scope and of each framework beside P2's, with its 90% interval. */
function renderDistributedShare(share, state) {
  const mine = share.share;
  const seed = ' (P2: ' + percent(share.seed.value) + ')';
  const ds = document.getElementById('ds-summary');
  text('ds-summary', mine && mine.share !== null && mine.share !== undefined
    ? shareText(mine.share, mine.shareLow, mine.shareHigh) + ' of the bug reports with a known answer are distributed-specific'
      + (share.mode === 'estimate' ? ' (≈ ' + num(Math.round(mine.estimate)) + ' expected)' : ' (' + num(mine.estimate) + ' labels counted)') + seed
    : '— (' + ((mine && mine.note) || 'no bug reports with a known answer') + ')' + seed);
  ds.title = methodTitle(mine);
  text('ds-coverage', coverageText(mine && { inScope: mine.inScope, labelled: mine.labelled, coverage: mine.coverage },
    share.scope.confidence, 'issues'));
  const rows = [{ ...share.overall, framework: 'All' }, ...share.frameworks];
  const pct = (v) => (v === null || v === undefined ? null : Math.round(v * 1000) / 10);
  draw('ds-chart', {
    type: 'bar',
    data: {
      labels: [...rows.map((r) => r.framework), 'P2 (seed)'],
      datasets: [{
        label: 'distributed-specific share (%)',
        data: [...rows.map((r) => (r.share === null || r.share === undefined ? 0 : pct(r.share))), share.seed.value * 100],
        backgroundColor: [...rows.map((r, i) => (r.framework === (state.filters.framework || 'All') ? '#2557a7' : '#9db4da')), '#d97706'],
      }, ...intervalMarks([...rows.map((r) => pct(r.shareLow)), null], [...rows.map((r) => pct(r.shareHigh)), null])],
    },
    options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, max: 100 } } },
  });
}

/** Bug reports per release, and the releases whose symptoms moved. */
function renderReleases(releases, shifts) {
  const list = releases.releases;
  text('releases-summary', (releases.mode === 'estimate' ? '≈ ' + num(Math.round(releases.bugs)) + ' bug reports expected'
    : num(releases.bugs) + ' bug reports (labels counted)') + ' filed against ' + num(list.length) + ' releases');
  text('releases-coverage', coverageText(releases.coverage, releases.scope.confidence, 'bug reports filed against them'));
  const shown = list.slice(-40);
  draw('releases-chart', {
    type: 'bar',
    data: {
      labels: shown.map((r) => r.framework + ' ' + r.version + ' (' + day(r.publishedAt) + ')'),
      datasets: [{
        label: 'bug reports',
        data: shown.map((r) => r.bugs),
        backgroundColor: shown.map((r) => (r.release === releases.scope.release ? '#d97706' : color(frameworkIndex(list, r.framework)))),
      }, ...intervalMarks(shown.map((r) => r.bugsLow), shown.map((r) => r.bugsHigh))],
    },
    options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
  });
  document.querySelector('#releases-table tbody').replaceChildren(
    ...list.slice().reverse().slice(0, 200).map((r) =>
      el('tr', { class: r.release === releases.scope.release ? 'selected' : null, dataset: { release: r.release } },
        el('td', {}, r.framework), el('td', {}, r.version), el('td', {}, day(r.publishedAt)),
        el('td', { class: 'num bugs', title: methodTitle(r) }, figureText(r.bugs, r.bugsLow, r.bugsHigh, r.note)),
        el('td', { class: 'num' }, figureText(r.openBugs, r.openLow, r.openHigh, r.note)),
        el('td', { class: 'num coverage', title: num(r.labelled) + ' of ' + num(r.inScope) + ' bug reports' },
          wholePercent(r.coverage)))));
  const moved = shifts.releases.flatMap((r) => r.categories.filter((c) => c.differs).map((c) => ({ r, c })));
  text('shifts-summary', 'Symptoms of bug reports in the ' + shifts.daysAfter + ' days from each of the newest '
    + num(shifts.releases.length) + ' releases (a younger release: the days so far) against the '
    + shifts.daysBefore + ' days before (' + shifts.test + '): '
    + (moved.length === 0 ? 'none moved' : num(moved.length) + ' moved'));
  document.querySelector('#shifts-table tbody').replaceChildren(
    ...moved.map(({ r, c }) => el('tr', { dataset: { release: r.release, category: c.category } },
      el('td', {}, r.framework + ' ' + r.version + ' (' + day(r.publishedAt)
        + (r.soFar ? ', ' + r.soFar : '') + ')'),
      el('td', {}, c.category),
      el('td', { class: 'num' }, shiftCount(c.before, shifts.mode) + ' (' + Number(c.beforePerWeek).toFixed(1) + ')'),
      el('td', { class: 'num' }, shiftCount(c.after, shifts.mode) + ' (' + Number(c.afterPerWeek).toFixed(1) + ')'),
      el('td', { class: 'num' }, Number(c.adjustedPValue).toPrecision(2)))));
}

/** A count of the release view: an expected count to one decimal ("≈ 3.4"), or a count of labels. */
function shiftCount(v, mode) {
  return mode === 'labels' ? num(v) : '≈ ' + Number(v).toFixed(1);
}

/** The low and high ends of 90% intervals as two point-only line datasets over a bar chart (none for counts). */
function intervalMarks(low, high) {
  if (low.every((v) => v === null || v === undefined)) return [];
  const mark = (label, data) => ({ label, type: 'line', showLine: false, pointStyle: 'line', pointRadius: 6, data, borderColor: '#1d2330' });
  return [mark('90% interval, low', low), mark('90% interval, high', high)];
}

/** An estimate with its interval, e.g. "≈ 41 (34–49)"; a count of labels as a plain number. */
export function estimateText(value, low, high) {
  if (value === null || value === undefined) return '—';
  const round = (v) => (Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10);
  if (low === null || low === undefined) return num(value);
  return '≈ ' + round(value) + ' (' + round(low) + '–' + round(high) + ')';
}

/** A share with its interval, e.g. "12% (8–17%)". */
function shareText(share, low, high) {
  if (share === null || share === undefined) return '—';
  if (low === null || low === undefined) return wholePercent(share);
  return wholePercent(share) + ' (' + Math.round(low * 100) + '–' + Math.round(high * 100) + '%)';
}

/** The one table of the seed studies' figures: each published figure beside this data's estimate. */
function renderStudies(studies) {
  const pct = (v) => (v * 100).toFixed(1) + '%';
  document.querySelector('#studies-table tbody').replaceChildren(
    ...studies.figures.map((f) => el('tr', { dataset: { figure: f.figure } },
      el('td', {}, f.study),
      el('td', {}, f.statement),
      el('td', { class: 'num published' }, f.published === null || f.published === undefined ? '—' : pct(f.published)),
      el('td', { class: 'num this', title: f.method || null }, f.ranking !== null && f.ranking !== undefined
        ? f.ranking
        : f.estimate === null || f.estimate === undefined
          ? '— (' + (f.note || 'no issue in scope') + ')'
          : pct(f.estimate) + ' (' + (f.low * 100).toFixed(1) + '–' + (f.high * 100).toFixed(1) + '%)'),
      el('td', { class: 'num' }, f.basis === null || f.basis === undefined ? '' : '≈ ' + num(Math.round(f.basis))),
      el('td', { class: 'muted small' }, f.definition))));
}

/** The shares card of the trends view: one row per code of the dimension; the global switch says how it counts. */
async function renderShares(state) {
  const data = await get('shares', { ...state.filters, dimension: state.dimension });
  const known = data.rows.filter((r) => r.share !== null && r.share !== undefined);
  text('shares-summary', (data.mode === 'estimate'
    ? '≈ ' + num(Math.round(data.expectedInScope)) + ' bug reports expected among ' + num(data.inScope) + ' issues in scope'
    : num(known.reduce((a, r) => a + r.estimate, 0)) + ' labels counted among ' + num(data.inScope) + ' issues in scope')
    + ', by ' + data.dimension);
  text('shares-method', data.mode !== 'estimate'
    ? 'Counted: ' + data.method + '. Estimates are the default: counting only sure labels keeps the easy categories.'
    : data.sampleSize > 0
      ? 'Estimated by prediction-powered inference (' + data.method + ') with a validation sample of '
        + num(data.sampleSize) + ' issues labelled by a person: the intervals hold for the whole scope.'
      : 'Estimated by summing each issue\'s calibrated probabilities (' + data.method + '): the intervals hold the'
        + ' per-issue uncertainty, not calibration error; a validation sample (faultline sample draw) makes them citable.');
  document.querySelector('#shares-table tbody').replaceChildren(
    ...data.rows.filter((r) => r.code !== 'NONE' && (r.estimate > 0 || r.labelled > 0))
      .sort((a, b) => b.estimate - a.estimate || a.code.localeCompare(b.code)).map((r) => el('tr', { dataset: { code: r.code } },
      el('td', {}, r.code),
      el('td', { class: 'num estimate' }, estimateText(r.estimate, r.estimateLow, r.estimateHigh)),
      el('td', { class: 'num' }, shareText(r.share, r.shareLow, r.shareHigh)),
      el('td', { class: 'num' }, num(r.labelled)))));
}

function frameworkIndex(list, framework) {
  return [...new Set(list.map((r) => r.framework))].indexOf(framework);
}

export async function trends(state) {
  const data = await get('trends', { ...state.filters, dimension: state.dimension, bucket: state.bucket });
  text('trends-summary', (data.mode === 'estimate' ? '≈ ' + num(Math.round(data.total)) + ' bug reports expected'
    : num(data.total) + ' bug reports (labels counted)') + ' by ' + data.dimension + ' per ' + data.bucket
    + (data.series.length ? ', ' + data.series.length + ' series' : '')
    + (data.mode === 'estimate' ? '; shaded: each point\'s 90% interval' : ''));
  text('trends-coverage', coverageText(data.coverage, data.scope.confidence, 'bug reports'));
  const datasets = [];
  data.series.forEach((s, i) => {
    datasets.push({ label: s.category, data: s.counts, borderColor: color(i), backgroundColor: color(i), tension: 0 });
    if (s.low && s.high) {
      // the interval band: the low end, then the high end filled down to it
      const band = { borderWidth: 0, pointRadius: 0, tension: 0, band: true };
      datasets.push({ ...band, label: s.category + ' 90% low', data: s.low, borderColor: 'transparent', fill: false });
      datasets.push({ ...band, label: s.category + ' 90% high', data: s.high, borderColor: 'transparent',
        backgroundColor: color(i) + '22', fill: '-1' });
    }
  });
  draw('trends-chart', {
    type: 'line',
    data: { labels: data.periods, datasets },
    options: {
      plugins: { legend: { labels: { filter: (item, chart) => !chart.datasets[item.datasetIndex].band } } },
      scales: { y: { beginAtZero: true } },
    },
  });
  document.querySelector('#trends-table tbody').replaceChildren(
    ...data.series.map((s) => el('tr', { dataset: { category: s.category } },
      el('td', {}, s.category), el('td', { class: 'num' }, num(s.total)))));

  await renderShares(state);

  // the global "Labels counted" switch (a filter) is the one way to count labels
  const heat = await get('heatmap', state.filters);
  text('heatmap-summary', heat.mode === 'estimate'
    ? '≈ ' + num(Math.round(heat.total)) + ' bug reports expected with a known stage and symptom (' + heat.method + ')'
    : num(heat.total) + ' bug reports with a known stage and symptom');
  text('heatmap-coverage', coverageText(heat.coverage, heat.scope.confidence, 'issues'));
  const table = fill('heatmap');
  table.append(el('thead', {}, el('tr', {}, el('th', {}, 'stage \\ symptom'),
    ...heat.symptoms.map((s, i) => el('th', { title: heat.symptomClasses[i] || '' }, s)))));
  table.append(el('tbody', {}, ...heat.stages.map((stage, r) => el('tr', {},
    el('th', { class: 'row' }, stage),
    ...heat.cells[r].map((v, c) => shade(el('td', {
      dataset: { stage, symptom: heat.symptoms[c] },
      title: heat.low && heat.low[r][c] !== null ? '90% interval ' + heat.low[r][c] + '–' + heat.high[r][c] : null,
    }, v === 0 ? '' : cellText(v)), v, heat.max))))));
}

/** A heat-map cell: a count, or an expected count to one decimal below 10. */
function cellText(v) {
  return Number.isInteger(v) || v >= 10 ? String(Math.round(v)) : v.toFixed(1);
}

/** Colours a heat-map cell by its count against the largest. */
function shade(cell, v, max) {
  if (v > 0) {
    const alpha = 0.15 + 0.85 * (v / max);
    cell.style.backgroundColor = 'rgba(37, 87, 167, ' + alpha.toFixed(2) + ')';
    cell.style.color = alpha > 0.55 ? '#fff' : '#1d2330';
  }
  return cell;
}

export async function fixes(state) {
  const data = await get('fix-patterns', state.filters);
  text('fixes-summary', data.total === 0
    ? 'No merged fixes with a known symptom and fix pattern'
    : (data.mode === 'estimate' ? '≈ ' + Number(data.total).toFixed(1) + ' merged fixes expected'
      : num(data.total) + ' merged fixes') + ' over ' + num(data.symptoms.length) + ' symptoms and '
      + num(data.fixPatterns.length) + ' fix patterns');
  text('fixes-coverage', coverageText(data.coverage, data.scope.confidence, 'merged fixes'));
  const lines = {};
  for (const r of data.rows) lines[r.symptom + ' ' + r.fixPattern] = r;
  const table = fill('fix-patterns');
  table.append(el('thead', {}, el('tr', {}, el('th', {}, 'symptom \\ fix pattern'),
    ...data.fixPatterns.map((p) => el('th', {}, p)), el('th', {}, 'fixes'))));
  table.append(el('tbody', {}, ...data.symptoms.map((symptom, r) => el('tr', { dataset: { symptom } },
    el('th', { class: 'row' }, symptom),
    ...data.cells[r].map((v, c) => {
      const row = lines[symptom + ' ' + data.fixPatterns[c]];
      return shade(el('td', {
        dataset: { symptom, fixPattern: data.fixPatterns[c] },
        title: row ? num(row.fixes) + ' fixes, ' + wholePercent(row.shareOfSymptom) + ' of the symptom\'s, median '
          + row.medianLines + ' changed lines, ' + num(row.fromIssues) + ' from bug reports' : null,
      }, v === 0 ? '' : String(v)), v, data.max);
    }),
    el('td', { class: 'num total' }, num(data.symptomTotals[r]))))));
}

export async function alerts(state) {
  const data = await get('alerts', { framework: state.filters.framework, limit: 50 });
  text('alerts-summary', data.alerts.length === 0 ? 'No emerging-category alerts' : data.alerts.length + ' alerts, newest first');
  fill('alert-list', ...data.alerts.map((a) => el('li', { class: a.kind, dataset: { alert: a.id } },
    el('div', { class: 'what' }, a.kind + ' · ' + a.dimension + ' ' + a.category + ' · ' + a.framework),
    el('div', { class: 'muted small' }, 'raised ' + day(a.raisedAt) + ' · window ' + day(a.windowStart) + ' – ' + day(a.windowEnd)
      + ' · ' + num(a.count) + ' issues, baseline ' + Number(a.baseline).toFixed(1) + ', score ' + Number(a.score).toFixed(2)),
    el('p', { class: 'explanation' }, a.explanation),
    (a.moved || []).length > 1 ? el('div', { class: 'small' }, 'Moved by this event, strongest first:',
      el('div', { class: 'moved' }, ...a.moved.map((m) => el('div', { class: 'move' }, '· ' + m)))) : null,
    a.examples.length ? el('div', { class: 'small' }, 'Examples: ',
      ...a.examples.flatMap((x, i) => [i ? ', ' : '', issueLink(x.id), ' ', el('span', { class: 'muted' }, x.title || '')])) : null)));
}

export async function issues(state) {
  const data = await get('issues', { ...state.filters, page: state.page, size: 25 });
  const first = data.page * data.size;
  text('issues-summary', num(data.total) + ' issues' + (data.total ? ', newest first' : ''));
  text('issues-page', data.total === 0 ? '' : (first + 1) + '–' + (first + data.issues.length) + ' of ' + num(data.total));
  document.getElementById('issues-prev').disabled = data.page === 0;
  document.getElementById('issues-next').disabled = first + data.issues.length >= data.total;
  document.querySelector('#issue-table tbody').replaceChildren(
    ...data.issues.map((i) => el('tr', { dataset: { issue: i.id } },
      el('td', { class: 'nowrap' }, day(i.createdAt)), el('td', { class: 'nowrap' }, issueLink(i.id)), el('td', { class: 'title' }, i.title || ''),
      el('td', {}, i.framework), el('td', {}, i.kind), el('td', {}, i.symptom), el('td', {}, i.stage),
      el('td', {}, i.distributedSpecific === null || i.distributedSpecific === undefined ? '?' : i.distributedSpecific ? 'yes' : 'no'))));
}

export async function issue(state) {
  const data = await get('issue', { id: state.issue });
  const i = data.issue;
  text('issue-title', i.title || i.id);
  text('issue-meta', i.id + ' · ' + i.state + ' · ' + i.framework + (i.frameworkVersion ? ' ' + i.frameworkVersion : '')
    + ' · opened ' + day(i.createdAt) + (i.closedAt ? ' · closed ' + day(i.closedAt) : '')
    + (i.release ? ' · filed against ' + i.release.id : '') + ' · classifier ' + (i.classifierVersion || '—')
    + (i.labelSource ? ' (' + i.labelSource + (i.promptVersion ? ', prompt ' + i.promptVersion : '') + ')' : ''));
  const link = document.getElementById('issue-link');
  if (typeof i.url === 'string' && /^https:\/\/github\.com\//.test(i.url)) {
    link.href = i.url;
    link.hidden = false;
  } else {
    link.hidden = true;
  }
  document.querySelector('#issue-labels tbody').replaceChildren(
    ...i.classifications.map((c) => el('tr', { dataset: { dimension: c.dimension } },
      el('td', {}, c.dimension), el('td', {}, c.code === null ? '—' : c.code),
      el('td', { class: 'num' }, c.confidence === null || c.confidence === undefined ? '—' : Number(c.confidence).toFixed(2)),
      el('td', { class: 'evidence' }, c.evidence || ''),
      el('td', { class: 'source' }, sourceBadge(c.source, c.humanGiven)),
      el('td', { class: 'version' }, c.version || '—'),
      el('td', { class: 'labelled-at nowrap', title: c.labelledAt || 'not recorded' }, c.labelledAt ? day(c.labelledAt) : '—'))));
  text('issue-gh-labels', i.labels.length ? 'GitHub labels: ' + i.labels.join(', ') : 'No GitHub labels');
  fill('issue-fixes', ...(i.fixes.length ? i.fixes.map(prItem) : [el('li', { class: 'muted' }, 'No linked fixing PR')]));
  fill('issue-similar', ...(data.similar.length ? data.similar.map(similarItem)
    : [el('li', { class: 'muted' }, 'No similar issue')]));
}

/** One similar issue: what it is, how it was found, its error lines and what resolved it. */
function similarItem(s) {
  const how = [s.textRank ? 'words #' + s.textRank : null, s.vectorRank ? 'meaning #' + s.vectorRank : null]
    .filter(Boolean).join(', ');
  return el('li', { dataset: { issue: s.id, resolution: s.resolution } },
    issueLink(s.id), ' ', el('span', { class: 'title' }, s.title || ''),
    el('div', { class: 'muted small' }, [s.framework, s.state, 'opened ' + day(s.createdAt),
      s.symptom && s.symptom !== 'UNKNOWN' ? s.symptom : null, how ? 'found by ' + how : null]
      .filter(Boolean).join(' · ')),
    s.errorLines ? el('pre', { class: 'error-lines small' }, s.errorLines) : null,
    resolution(s));
}

/** What resolved an issue: its merged fixes first (title, fix pattern, changed lines), else the reply, else its state. */
function resolution(s) {
  const merged = s.fixes.filter((f) => f.merged);
  const open = s.fixes.filter((f) => !f.merged);
  const parts = [];
  if (merged.length) {
    parts.push(el('div', { class: 'resolution fixed small' }, 'Fixed by',
      el('ul', { class: 'plain' }, ...merged.map(fixItem))));
  }
  if (s.answer) {
    parts.push(el('div', { class: 'resolution answer small' },
      (s.answer.maintainer ? 'Maintainer answer' : 'Last reply (not a maintainer)') + ' by ' + (s.answer.author || '?')
        + ', ' + day(s.answer.at) + ': ',
      el('q', {}, s.answer.text.length > 300 ? s.answer.text.slice(0, 300) + '…' : s.answer.text)));
  }
  if (open.length) {
    parts.push(el('div', { class: 'resolution pending small' }, 'Unmerged pull requests',
      el('ul', { class: 'plain' }, ...open.map(fixItem))));
  }
  if (!parts.length) {
    parts.push(el('div', { class: 'resolution none muted small' }, s.state === 'closed'
      ? 'Closed; no fix or reply in the graph'
      : 'Open; no fix or reply yet'));
  }
  return parts;
}

/** A fixing pull request: link, title, its fix pattern, changed lines and when it was merged. */
function fixItem(pr) {
  const facts = [pr.fixPattern && pr.fixPattern !== 'UNKNOWN' ? 'fix pattern ' + pr.fixPattern : null,
    pr.changedLines === null || pr.changedLines === undefined ? null
      : pr.changedLines + ' changed lines (+' + pr.additions + ' −' + pr.deletions + ')',
    pr.merged ? 'merged ' + day(pr.mergedAt) : 'not merged'].filter(Boolean).join(' · ');
  return el('li', { dataset: { pr: pr.id } }, githubLink(pr.url, pr.id), ' ', el('span', {}, pr.title || ''),
    el('span', { class: 'muted' }, ' · ' + facts));
}

let lastSearch = null;

/** The "find issues like this" view: its framework choices; a search already made is run again (live updates). */
export async function similar(state, catalog) {
  const select = document.getElementById('similar-framework');
  if (catalog && select.options.length <= 1) {
    select.append(...catalog.frameworks.map((f) => el('option', { value: f.name }, f.name)));
  }
  if (lastSearch) await runSearch(lastSearch);
}

/** Searches by the pasted report in the form. */
export async function searchSimilar() {
  const request = {
    title: document.getElementById('similar-title').value,
    text: document.getElementById('similar-text').value,
    framework: document.getElementById('similar-framework').value || null,
    limit: 10,
  };
  if (!request.title.trim() && !request.text.trim()) {
    text('similar-summary', 'Give a title or a text to search by');
    return;
  }
  lastSearch = request;
  await runSearch(request);
}

async function runSearch(request) {
  const data = await post('similar', request);
  text('similar-summary', data.similar.length
    ? data.similar.length + ' issues like this, by words' + (data.byMeaning ? ' and meaning' : ' (no encoder: words only)')
      + (data.errorLines ? '; error lines searched: ' + data.errorLines.split('\n')[0] : '')
    : 'No issue like this in the graph');
  fill('paste-similar', ...data.similar.map(similarItem));
}

function prItem(pr) {
  const size = pr.additions === null || pr.additions === undefined ? '' : ' (+' + pr.additions + ' −' + pr.deletions + ')';
  return el('li', { dataset: { pr: pr.id } }, githubLink(pr.url, pr.id), ' ', el('span', {}, pr.title || ''),
    el('span', { class: 'muted small' }, (pr.merged ? ' merged ' + day(pr.mergedAt) : ' not merged') + size));
}

/** Who gave a label: a person's GitHub label, a language model, the learned layer or the rules. */
function sourceBadge(source, humanGiven) {
  if (source === 'human' || (!source && humanGiven)) return el('span', { class: 'badge human' }, 'human (GitHub label)');
  if (!source) return el('span', { class: 'badge' }, '—');
  const kind = source.startsWith('llm:') ? 'llm' : source === 'model' ? 'model' : 'rules';
  return el('span', { class: 'badge ' + kind }, source);
}

/** A source with its version as one name: "model learned-1.1", "llm:gpt-x/prompt-2" (the version names the model), "human". */
export function sourceName(source, version) {
  if (source === 'human' || !version) return source;
  return version.startsWith(source) ? version : source + ' ' + version;
}

const MIX_COLORS = { human: '#15803d', model: '#2557a7', rules: '#9ca3af', llm: '#7c3aed', unknown: '#d1d5db' };

/**
 * The label-sources card: for the scope of the view on screen (its filters; the trends view's dimension; the issue
 * list's release match), each dimension's labels by source and version, e.g. "symptom: 61% model learned-1.1, 30%
 * llm:gpt-x/prompt-2, 9% human". Hidden where the view has no scope of labels (alerts, one issue).
 */
export async function labelMix(state) {
  const card = document.getElementById('label-mix');
  if (!['overview', 'trends', 'fixes', 'issues'].includes(state.view)) {
    card.hidden = true;
    return;
  }
  const params = { ...state.filters };
  if (state.view === 'issues') params.list = 'true';
  const data = await get('label-sources', params);
  card.hidden = false;
  const what = data.list ? 'issues in the list' : data.kind === 'all' ? 'issues in scope' : 'bug reports in scope';
  const total = data.dimensions.length ? Math.max(...data.dimensions.map((d) => d.labels)) : 0;
  text('label-mix-summary', total === 0
    ? 'No labelled ' + what
    : 'Labels of the ' + num(total) + ' ' + what + ', by the source and version that gave them');
  const chosen = state.view === 'trends' ? (state.dimension === 'symptomClass' ? 'symptom' : state.dimension) : null;
  fill('label-mix-list', ...data.dimensions.map((d) => el('li', { dataset: { dimension: d.dimension }, class: d.dimension === chosen ? 'chosen' : null },
    el('span', { class: 'dimension' }, d.dimension),
    el('span', { class: 'mix-text' }, d.sources.map((s) => wholePercent(s.share) + ' ' + sourceName(s.source, s.version)).join(', ')),
    el('span', { class: 'mix-bar' }, ...d.sources.map((s) => {
      const part = el('span', {
        dataset: { source: s.source, version: s.version || '' },
        title: sourceName(s.source, s.version) + ': ' + num(s.labels) + ' labels, ' + num(s.labelled) + ' above the bar'
          + (s.firstLabelledAt ? ', given ' + day(s.firstLabelledAt) + ' – ' + day(s.lastLabelledAt) : ''),
      });
      part.style.width = (s.share * 100).toFixed(2) + '%';
      part.style.backgroundColor = MIX_COLORS[s.source.startsWith('llm:') ? 'llm' : s.source] || MIX_COLORS.unknown;
      return part;
    })))));
}
