"""The look of ``report.html``: its stylesheet and the few lines of JavaScript that
sort the sites table by a click on a column's head. Both are put inline in the page
(:mod:`webrobot.report.html`), so it opens from a file without fetching anything.
"""

CSS = """
*{box-sizing:border-box}
body{font:14px/1.4 'DejaVu Sans','Helvetica Neue',Arial,sans-serif;color:#222;margin:0;background:#f4f5f7}
main{max-width:1400px;margin:0 auto;padding:16px 20px 32px}
h1{font-size:22px;margin:0 0 2px}h1 small{font-weight:normal;color:#666;font-size:15px}
h2{font-size:16px;margin:0 0 8px}
.meta{color:#555;margin:0 0 12px}
.health{border-radius:6px;padding:8px 12px;margin:0 0 12px;border:1px solid}
.health.ok{background:#e9f6ec;border-color:#9fd3ab;color:#1d5e2c}
.health.bad{background:#fdf0e6;border-color:#f0b27a;color:#7a3a08}
.health ul{margin:4px 0 0;padding-left:20px}
.tiles{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px}
.tile{background:#fff;border:1px solid #dde0e4;border-radius:6px;padding:6px 12px;min-width:110px}
.tile b{display:block;font-size:20px}.tile span{color:#666;font-size:12px}
.card{background:#fff;border:1px solid #dde0e4;border-radius:6px;padding:10px 12px;margin:0 0 12px}
table{border-collapse:collapse;width:100%}
th,td{padding:4px 6px;border-bottom:1px solid #eceef1;text-align:right;vertical-align:top;white-space:nowrap}
th{background:#f0f2f5;font-size:12px;cursor:pointer;user-select:none;position:sticky;top:0}
th:first-child,td:first-child,td.text,th.text{text-align:left}
td.text{white-space:normal;max-width:260px}
tr.warn td{background:#fff6ee}
.sub{display:block;color:#777;font-size:11px;white-space:normal}
.bad-text{color:#b0361f;font-weight:bold}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(400px,1fr));gap:12px}
.charts figure{margin:0}.charts svg{width:100%;height:auto;display:block}
.note{color:#666;font-size:12px;margin:6px 0 0}
table.diff{table-layout:fixed;width:100%;margin:4px 0 14px}
table.diff td,table.diff th{text-align:left;vertical-align:top;white-space:pre-wrap;overflow-wrap:anywhere}
table.diff td.old{background:#fdecea}table.diff td.new{background:#e6f4ea}
table.diff th.field{width:14%}h3.page{font-size:13px;margin:12px 0 2px;overflow-wrap:anywhere}
"""

SORT_JS = """
(function(){
  var table=document.getElementById('sites');
  if(table){
    var heads=table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads,function(th,col){
      th.addEventListener('click',function(){
        var body=table.tBodies[0];
        var rows=Array.prototype.slice.call(body.rows);
        var down=th.getAttribute('data-dir')!=='down';
        rows.sort(function(a,b){
          var x=a.cells[col].getAttribute('data-v'),y=b.cells[col].getAttribute('data-v');
          var nx=parseFloat(x),ny=parseFloat(y);
          var c=(isNaN(nx)||isNaN(ny))?String(x).localeCompare(String(y)):nx-ny;
          return down?-c:c;
        });
        rows.forEach(function(r){body.appendChild(r);});
        th.setAttribute('data-dir',down?'down':'up');
      });
    });
  }
  document.body.setAttribute('data-ready','1');
})();
"""
