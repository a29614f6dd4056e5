// gopari report: sortable and filterable tables, and the timeline.
// Plain JavaScript, no libraries; the page works from file://.
(function () {
  'use strict';

  function fmtNs(ns) {
    var a = Math.abs(ns);
    function sig(x) { var b = Math.abs(x); return x.toFixed(b < 1 ? 3 : b < 10 ? 2 : b < 100 ? 1 : 0); }
    if (a === 0) return '0 s';
    if (a < 1e3) return sig(ns) + ' ns';
    if (a < 1e6) return sig(ns / 1e3) + ' µs';
    if (a < 1e9) return sig(ns / 1e6) + ' ms';
    return sig(ns / 1e9) + ' s';
  }

  // Tables: a click on a header sorts by its column (data-v of the cells;
  // numbers first largest, text A to Z), a second click reverses.
  function sortTable(table, th) {
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var num = th.getAttribute('data-type') === 'num';
    var dir = th.getAttribute('aria-sort') === (num ? 'descending' : 'ascending') ? -1 : 1;
    if (num) dir = -dir;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (r, i) {
      var v = r.cells[col] ? r.cells[col].getAttribute('data-v') : '';
      return { r: r, i: i, v: num ? parseFloat(v) : (v || '').toLowerCase() };
    });
    rows.sort(function (a, b) {
      if (a.v < b.v) return -dir;
      if (a.v > b.v) return dir;
      return a.i - b.i;
    });
    rows.forEach(function (x) { body.appendChild(x.r); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th[data-type]').forEach(function (th) {
      if (th.getAttribute('data-type') === 'none') return;
      th.addEventListener('click', function () { sortTable(table, th); });
    });
  });

  // Filters: rows whose data-search does not hold the text are hidden.
  document.querySelectorAll('input.filter').forEach(function (input) {
    var table = document.getElementById(input.getAttribute('data-table'));
    var shown = input.parentNode.querySelector('.shown');
    function apply() {
      var q = input.value.trim().toLowerCase(), n = 0, rows = table.tBodies[0].rows;
      Array.prototype.forEach.call(rows, function (r) {
        var hide = q !== '' && (r.getAttribute('data-search') || '').toLowerCase().indexOf(q) < 0;
        r.hidden = hide;
        if (!hide) n++;
      });
      if (shown) shown.textContent = n + ' of ' + rows.length + ' shown';
    }
    input.addEventListener('input', apply);
    apply();
  });

  var dataEl = document.getElementById('tl-data');
  if (dataEl) timeline(JSON.parse(dataEl.textContent));
  var flEl = document.getElementById('fl-data');
  if (flEl) flame(JSON.parse(flEl.textContent));

  // The timeline: one row per thread on a canvas; exact segments, or
  // bins with the share of their time per category.
  function timeline(d) {
    var canvas = document.getElementById('tl-canvas'), wrap = document.getElementById('tl-wrap');
    var tip = document.getElementById('tl-tip'), range = document.getElementById('tl-range');
    var ctx = canvas.getContext('2d');
    var rowH = 20, axisH = 22, labelW = 72, end = Math.max(d.end_ns, 1);
    var view = { t0: 0, t1: end };
    d.tracks.forEach(function (t) {
      if (t.s) { var acc = 0; t.st = t.s.map(function (x) { acc += x; return acc; }); }
      if (t.b) { // the offset of each bin's first triple
        t.off = new Int32Array(d.bins + 1).fill(-1);
        for (var k = t.b.length - 3; k >= 0; k -= 3) t.off[t.b[k]] = k;
      }
    });
    var used = {};
    d.tracks.forEach(function (t) {
      (t.c || []).forEach(function (c) { used[c] = true; });
      for (var k = 1; t.b && k < t.b.length; k += 3) used[t.b[k]] = true;
    });
    var legend = document.getElementById('tl-legend');
    d.cats.forEach(function (c, i) {
      if (!used[i]) return;
      var li = document.createElement('li'), sw = document.createElement('i');
      sw.style.background = c.color;
      li.appendChild(sw);
      li.appendChild(document.createTextNode(c.name));
      legend.appendChild(li);
    });
    function width() { return canvas.clientWidth - labelW; }
    function X(t) { return labelW + (t - view.t0) / (view.t1 - view.t0) * width(); }
    function T(x) { return view.t0 + (x - labelW) / width() * (view.t1 - view.t0); }
    function resize() {
      var dpr = window.devicePixelRatio || 1, h = axisH + d.tracks.length * rowH + 4;
      canvas.style.height = h + 'px';
      canvas.width = Math.round(canvas.clientWidth * dpr);
      canvas.height = Math.round(h * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw();
    }
    // first returns the index of the first segment of t ending after time.
    function first(t, time) {
      var lo = 0, hi = t.st.length;
      while (lo < hi) {
        var m = (lo + hi) >> 1;
        if (t.st[m] + t.d[m] <= time) lo = m + 1; else hi = m;
      }
      return lo;
    }
    // drawExact draws the segments in view; where there are more than
    // pixels, each pixel column shows the share of its time per category.
    function drawExact(t, y) {
      var k0 = first(t, view.t0), k1 = k0, w = Math.ceil(width()), k;
      while (k1 < t.st.length && t.st[k1] <= view.t1) k1++;
      if (k1 - k0 <= w) {
        for (k = k0; k < k1; k++) {
          var x0 = Math.max(X(t.st[k]), labelW), x1 = X(t.st[k] + t.d[k]);
          ctx.fillStyle = d.cats[t.c[k]].color;
          ctx.fillRect(x0, y + 1, Math.max(x1 - x0, 0.6), rowH - 2);
        }
        return;
      }
      var nc = d.cats.length, acc = new Float64Array(w * nc), ppn = width() / (view.t1 - view.t0);
      for (k = k0; k < k1; k++) {
        var p0 = (Math.max(t.st[k], view.t0) - view.t0) * ppn, p1 = (Math.min(t.st[k] + t.d[k], view.t1) - view.t0) * ppn;
        for (var px = Math.floor(p0); px < p1 && px < w; px++) acc[px * nc + t.c[k]] += Math.min(px + 1, p1) - Math.max(px, p0);
      }
      for (var x = 0; x < w; x++) {
        var base = y + rowH - 1;
        for (var c = 1; c < nc; c++) {
          var h = acc[x * nc + c] * (rowH - 2);
          if (h <= 0) continue;
          ctx.fillStyle = d.cats[c].color;
          ctx.fillRect(labelW + x, base - h, 1, h);
          base -= h;
        }
      }
    }
    function drawTrack(t, y) {
      if (t.st) drawExact(t, y);
      if (t.b) {
        var b0 = Math.max(0, Math.floor(view.t0 / d.bin_ns)), b1 = Math.min(d.bins - 1, Math.floor(view.t1 / d.bin_ns));
        for (var b = b0; b <= b1; b++) {
          var o = t.off[b];
          if (o < 0) continue;
          var bx0 = Math.max(X(b * d.bin_ns), labelW), bx1 = X((b + 1) * d.bin_ns), base = y + rowH - 1;
          for (; o < t.b.length && t.b[o] === b; o += 3) {
            var h = t.b[o + 2] / 1000 * (rowH - 2);
            ctx.fillStyle = d.cats[t.b[o + 1]].color;
            ctx.fillRect(bx0, base - h, Math.max(bx1 - bx0, 0.6), h);
            base -= h;
          }
        }
      }
    }
    function draw() {
      var w = canvas.clientWidth;
      // Before layout (or in a pane narrower than the labels) there is no
      // room to draw: a negative width would make every length below negative.
      if (width() < 1) return;
      ctx.clearRect(0, 0, w, canvas.height);
      ctx.font = '11px system-ui, sans-serif';
      ctx.textBaseline = 'middle';
      // Axis: about one tick per 100 pixels, at round times.
      var span = view.t1 - view.t0, step = Math.pow(10, Math.floor(Math.log10(span / Math.max(1, width() / 100))));
      if (span / step > width() / 50) step *= 5; else if (span / step > width() / 100) step *= 2;
      ctx.fillStyle = '#62646a';
      ctx.strokeStyle = '#e3e5e8';
      for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
        var x = X(t);
        ctx.fillText(fmtNs(t), x + 2, axisH / 2);
        ctx.beginPath(); ctx.moveTo(x + 0.5, axisH - 4); ctx.lineTo(x + 0.5, canvas.height); ctx.stroke();
      }
      ctx.save();
      ctx.beginPath(); ctx.rect(labelW, 0, w - labelW, canvas.height); ctx.clip();
      d.tracks.forEach(function (tr, i) { drawTrack(tr, axisH + i * rowH); });
      ctx.restore();
      ctx.fillStyle = '#1d1d1f';
      d.tracks.forEach(function (tr, i) { ctx.fillText(tr.path, 4, axisH + i * rowH + rowH / 2); });
      range.textContent = fmtNs(view.t0) + ' – ' + fmtNs(view.t1) + ' of ' + fmtNs(end);
    }
    function zoom(f, at) {
      var span = Math.min(end, Math.max(10, (view.t1 - view.t0) * f));
      var t0 = at - (at - view.t0) * span / (view.t1 - view.t0);
      view.t0 = Math.max(0, Math.min(t0, end - span));
      view.t1 = view.t0 + span;
      draw();
    }
    function describe(tr, t) {
      if (tr.st) {
        var k = first(tr, t);
        if (k < tr.st.length && tr.st[k] <= t) {
          return tr.path + ': ' + d.cats[tr.c[k]].name + '\n' + fmtNs(tr.d[k]) + ' from ' + fmtNs(tr.st[k]);
        }
        return tr.path + ': idle';
      }
      var b = Math.floor(t / d.bin_ns), o = tr.off && b < d.bins ? tr.off[b] : -1, lines = [tr.path + ': ' + fmtNs(b * d.bin_ns) + ' – ' + fmtNs((b + 1) * d.bin_ns)];
      for (; o >= 0 && o < tr.b.length && tr.b[o] === b; o += 3) lines.push((tr.b[o + 2] / 10).toFixed(1) + '% ' + d.cats[tr.b[o + 1]].name);
      return lines.join('\n');
    }
    var drag = null;
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      zoom(e.deltaY < 0 ? 1 / 1.25 : 1.25, T(e.offsetX));
    }, { passive: false });
    canvas.addEventListener('mousedown', function (e) { drag = { x: e.clientX, t0: view.t0, t1: view.t1 }; });
    window.addEventListener('mouseup', function () { drag = null; });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
    canvas.addEventListener('mousemove', function (e) {
      if (drag) {
        var dt = (e.clientX - drag.x) / width() * (drag.t1 - drag.t0);
        var span = drag.t1 - drag.t0;
        view.t0 = Math.max(0, Math.min(drag.t0 - dt, end - span));
        view.t1 = view.t0 + span;
        draw();
        return;
      }
      var i = Math.floor((e.offsetY - axisH) / rowH);
      if (i < 0 || i >= d.tracks.length || e.offsetX < labelW) { tip.hidden = true; return; }
      tip.textContent = describe(d.tracks[i], T(e.offsetX));
      tip.style.left = Math.min(e.offsetX + 12, canvas.clientWidth - 260) + 'px';
      tip.style.top = (e.offsetY + 14) + 'px';
      tip.hidden = false;
    });
    canvas.addEventListener('dblclick', function () { view.t0 = 0; view.t1 = end; draw(); });
    document.querySelectorAll('.tl-controls button').forEach(function (btn) {
      btn.addEventListener('click', function () {
        var z = btn.getAttribute('data-zoom'), mid = (view.t0 + view.t1) / 2;
        if (z === 'in') zoom(0.5, mid);
        else if (z === 'out') zoom(2, mid);
        else { view.t0 = 0; view.t1 = end; draw(); }
      });
    });
    // Drawn when the canvas gets its size, and again when it changes.
    if (window.ResizeObserver) new ResizeObserver(function () { resize(); }).observe(canvas);
    else window.addEventListener('resize', resize);
    resize();
  }
  // The call paths as an icicle chart: the root on top, each path below
  // its caller, as wide as its inclusive time. A click zooms to a path,
  // the search box highlights the paths whose name holds its text.
  function flame(d) {
    var canvas = document.getElementById('fl-canvas'), tip = document.getElementById('fl-tip');
    var search = document.getElementById('fl-search'), match = document.getElementById('fl-match');
    var range = document.getElementById('fl-range'), ctx = canvas.getContext('2d');
    var n = d.n.length, rowH = 18, x = new Float64Array(n), next = new Float64Array(n), depth = 0, k;
    for (k = 0; k < n; k++) { // d is top-down: a parent before its children, siblings in order
      var p = d.p[k];
      if (p >= 0) { x[k] = x[p] + next[p]; next[p] += d.i[k]; }
      if (d.d[k] > depth) depth = d.d[k];
    }
    var view = 0, query = '', hit = new Uint8Array(n);
    function inView(k) { // k is view, below it, or one of its callers
      if (d.d[k] <= d.d[view]) { var a = view; while (a >= 0 && d.d[a] > d.d[k]) a = d.p[a]; return a === k; }
      var b = k; while (b >= 0 && d.d[b] > d.d[view]) b = d.p[b]; return b === view;
    }
    function colour(k) {
      var name = d.n[k], h = 0;
      for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
      if (name.indexOf('!$omp') === 0) return 'hsl(' + (200 + h % 40) + ',55%,' + (62 + h % 12) + '%)';
      return 'hsl(' + (10 + h % 45) + ',75%,' + (58 + h % 14) + '%)';
    }
    function geometry(k) {
      var w = canvas.clientWidth, x0 = x[view], span = Math.max(d.i[view], 1);
      if (d.d[k] < d.d[view]) return { x: 0, w: w };
      return { x: (x[k] - x0) / span * w, w: d.i[k] / span * w };
    }
    function draw() {
      var dpr = window.devicePixelRatio || 1, h = (depth + 1) * rowH + 2;
      canvas.style.height = h + 'px';
      canvas.width = Math.round(canvas.clientWidth * dpr);
      canvas.height = Math.round(h * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, canvas.clientWidth, h);
      ctx.font = '11px sans-serif';
      ctx.textBaseline = 'middle';
      for (var k = 0; k < n; k++) {
        if (!inView(k)) continue;
        var g = geometry(k), y = d.d[k] * rowH;
        if (g.w < 0.5) continue;
        ctx.globalAlpha = query && !hit[k] ? 0.35 : 1;
        ctx.fillStyle = query && hit[k] ? '#d6336c' : colour(k);
        ctx.fillRect(g.x, y, Math.max(g.w - 1, 0.5), rowH - 1);
        if (g.w > 30) {
          ctx.fillStyle = query && hit[k] ? '#fff' : '#1d2026';
          ctx.save();
          ctx.beginPath();
          ctx.rect(g.x, y, g.w - 2, rowH);
          ctx.clip();
          ctx.fillText(d.n[k], g.x + 3, y + rowH / 2);
          ctx.restore();
        }
      }
      ctx.globalAlpha = 1;
      range.textContent = view === 0 ? '' : 'zoomed to ' + d.n[view] + ' (' + fmtNs(d.i[view]) + ')';
    }
    function at(ev) {
      var row = Math.floor(ev.offsetY / rowH);
      for (var k = 0; k < n; k++) {
        if (d.d[k] !== row || !inView(k)) continue;
        var g = geometry(k);
        if (ev.offsetX >= g.x && ev.offsetX < g.x + g.w) return k;
      }
      return -1;
    }
    function find() {
      query = search.value.trim().toLowerCase();
      var total = 0;
      hit.fill(0);
      for (var k = 0; k < n; k++) {
        if (!query || d.n[k].toLowerCase().indexOf(query) < 0) continue;
        hit[k] = 1;
        var a = d.p[k], outer = true; // counted once where a caller matched too
        while (a >= 0) { if (hit[a]) { outer = false; break; } a = d.p[a]; }
        if (outer) total += d.i[k];
      }
      match.textContent = query ? 'matched ' + fmtNs(total) + ' (' + (100 * total / Math.max(d.i[0], 1)).toFixed(1) + '%)' : '';
      draw();
    }
    canvas.addEventListener('click', function (ev) { var k = at(ev); if (k >= 0) { view = k; draw(); } });
    canvas.addEventListener('dblclick', function () { view = 0; draw(); });
    document.getElementById('fl-all').addEventListener('click', function () { view = 0; draw(); });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
    canvas.addEventListener('mousemove', function (ev) {
      var k = at(ev);
      if (k < 0) { tip.hidden = true; return; }
      tip.textContent = d.n[k] + (d.w[k] ? '\n' + d.w[k] : '') + '\ninclusive ' + fmtNs(d.i[k]) + ' (' +
        (100 * d.i[k] / Math.max(d.i[0], 1)).toFixed(1) + '%)\nexclusive ' + fmtNs(d.e[k]) + '\nvisits ' + d.c[k];
      tip.style.left = Math.min(ev.offsetX + 12, canvas.clientWidth - 280) + 'px';
      tip.style.top = (ev.offsetY + 14) + 'px';
      tip.hidden = false;
    });
    search.addEventListener('input', find);
    if (window.ResizeObserver) new ResizeObserver(function () { draw(); }).observe(canvas);
    else window.addEventListener('resize', draw);
    find();
  }
})();
