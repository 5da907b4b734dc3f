// Thin wrappers over Chart.js (the webjar's UMD build, loaded before the modules as window.Chart).

const PALETTE = ['#2557a7', '#d97706', '#1e7b45', '#b3261e', '#7c3aed', '#0e7490', '#a16207', '#be185d', '#6b7280'];

export function color(i) {
  return PALETTE[i % PALETTE.length];
}

/** Draws (or redraws) a chart on the canvas with this id. Animation off: updates are instant and testable. */
export function draw(canvasId, config) {
  const canvas = document.getElementById(canvasId);
  const existing = window.Chart.getChart(canvas);
  if (existing) existing.destroy();
  config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, config.options || {});
  return new window.Chart(canvas, config);
}
