/* The campaign chart (issue 31, ADR 0035): draws each section marked data-chart with the vendored uPlot, from
   the tables the page already holds (they are its text alternative): one stepped line per character, x the
   entry's number in the campaign's log. Redrawn when the live panel is swapped in, and on resize. */
(function () {
  "use strict";
  /* the same colours as .chart-key.k0 … .k7 in web.css */
  var PALETTE = ["#0b4f8a", "#a4161a", "#1b5e20", "#8a5a00", "#6a3d9a", "#b0306f", "#00707a", "#4a4a4a"];
  var HEIGHT = 220;
  var WHOLE = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
               1000000];

  function lines(box) {
    var found = [];
    box.querySelectorAll("table[data-line]").forEach(function (table) {
      var points = [];
      table.querySelectorAll("tr[data-x]").forEach(function (row) {
        points.push([Number(row.getAttribute("data-x")), Number(row.getAttribute("data-y"))]);
      });
      found.push({ name: table.getAttribute("data-line"), points: points });
    });
    return found;
  }

  /* uPlot wants one x array: every position any line changed at; each line holds its value until its next change */
  function aligned(found) {
    var seen = {};
    found.forEach(function (line) { line.points.forEach(function (p) { seen[p[0]] = true; }); });
    var xs = Object.keys(seen).map(Number).sort(function (a, b) { return a - b; });
    var data = [xs];
    found.forEach(function (line) {
      var values = [], i = 0, last = null;
      xs.forEach(function (x) {
        while (i < line.points.length && line.points[i][0] <= x) { last = line.points[i][1]; i += 1; }
        values.push(last);
      });
      data.push(values);
    });
    return data;
  }

  function draw(box) {
    var plot = box.querySelector(".chart-plot");
    if (!plot || typeof window.uPlot !== "function") { return; }
    var found = lines(box);
    var data = aligned(found);
    if (!data[0].length) { return; }
    if (box.chart) { box.chart.destroy(); }
    plot.textContent = "";
    var stepped = window.uPlot.paths.stepped({ align: 1 });
    var series = [{ label: "Log entry" }];
    found.forEach(function (line, k) {
      // a line of one point (a character whose count never changed since it was made) is a dot, not nothing
      series.push({ label: line.name, stroke: PALETTE[k % PALETTE.length], width: 2, paths: stepped,
                    points: { show: line.points.length < 2, size: 8 } });
    });
    box.chart = new window.uPlot({
      width: Math.max(200, plot.clientWidth), height: HEIGHT, legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      // a line that never moves (every count 0) is drawn on a scale of a few units, not uPlot's 0 to 100
      scales: { x: { time: false }, y: { range: function (u, min, max) {
        if (min == null || max == null) { return [0, 1]; }
        if (max - min < 1) { return [Math.min(0, min), Math.max(min, 0) + 4]; }
        return window.uPlot.rangeNum(min, max, 0.1, true);
      } } },
      // whole numbers only: log entries and every sheet's counts are whole
      axes: [{ label: "Log entry", font: "12px system-ui", labelFont: "12px system-ui", incrs: WHOLE },
             { label: box.getAttribute("data-label"), font: "12px system-ui", labelFont: "12px system-ui",
               incrs: WHOLE }],
      series: series
    }, data, plot);
  }

  function drawAll(root) {
    (root || document).querySelectorAll("[data-chart]").forEach(draw);
  }

  function resize() {
    document.querySelectorAll("[data-chart]").forEach(function (box) {
      var plot = box.querySelector(".chart-plot");
      if (box.chart && plot) { box.chart.setSize({ width: Math.max(200, plot.clientWidth), height: HEIGHT }); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:afterSettle", function (event) { drawAll(event.target); });
  window.addEventListener("resize", resize);
}());
