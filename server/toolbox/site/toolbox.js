// Built-in tool site for the console's tool cabinet (server/toolbox/routes.ts). Plain script, no build step.
// The console opens it in a sandboxed iframe at /toolbox/#/<tool>?data=<base64 JSON {token, query, roleId, hostname}>.
(() => {
  const app = document.getElementById('app');
  const title = document.getElementById('title');
  let session = { token: '', query: {}, roleId: 0, hostname: '' };

  const TOOLS = {
    'score-segment': { title: '一分一段', render: scoreSegment },
    'batch-line': { title: '批次线', render: batchLines },
    'same-score': { title: '同分去向', render: sameScore },
    'school-score': { title: '院校分数线', render: (el) => schools(el, '') },
    'school-library': { title: '院校库', render: (el) => schools(el, '') },
    'double-first-class': { title: '双一流', render: (el) => schools(el, '双一流') },
    'major-score': { title: '专业分数线', render: majorLines },
    'plan-general': { title: '普通批招生计划', render: (el) => plans(el, '') },
    'plan-advance': { title: '提前批招生计划', render: (el) => plans(el, '提前批') },
    'major-library': { title: '专业库', render: majorLines },
    'subject-selection': { title: '选科查询', render: subjectSelection },
  };
  // Tools with no data set behind them: each says why, instead of pretending to work.
  const LATER = {
    'career-library': '职业库暂无可靠的公开数据来源，暂未提供。',
    'school-rank': '院校排名没有权威统一的公开榜单，暂未提供；可在院校分数线中按录取位次比较院校。',
    'subject-review': '学科评估结果未获授权收录，暂未提供。',
    diagnosis: '诊断换算需要各次模拟考试的全省分数分布，暂无此数据。',
  };

  const esc = (v) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

  function decodeData(text) {
    try {
      const bin = atob(decodeURIComponent(text));
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return null;
    }
  }

  /**
   * Asks the framing console for the session token and takes it only from our parent window. The console answers
   * only to the toolbox origin it has verified (平台设置 toolbox address), so the token is never in a URL or a log.
   */
  let pendingHandshake = null;
  function handshake() {
    if (pendingHandshake) return pendingHandshake;
    pendingHandshake = new Promise((resolve, reject) => {
      if (window.parent === window) return reject(new Error('not framed'));
      const timer = setTimeout(() => {
        window.removeEventListener('message', onMessage);
        pendingHandshake = null;
        reject(new Error('no answer'));
      }, 5000);
      function onMessage(event) {
        if (event.source !== window.parent || !event.data || event.data.type !== 'toolboxToken' || typeof event.data.token !== 'string') return;
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        session = { ...session, token: event.data.token };
        resolve();
      }
      window.addEventListener('message', onMessage);
      window.parent.postMessage({ type: 'toolboxReady' }, '*');
    });
    return pendingHandshake;
  }

  /** Tells the console the session is gone; the console shows 系统提示 / 重新登录. */
  function tokenExpired() {
    window.parent.postMessage({ type: 'tokenExpired' }, '*');
  }

  async function api(path, params) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) if (v !== '' && v !== undefined && v !== null) qs.set(k, v);
    const res = await fetch(`/toolbox/api/${path}${qs.size ? `?${qs}` : ''}`, { headers: { Authorization: `Bearer ${session.token}` } });
    let body;
    try {
      body = await res.json();
    } catch {
      throw new Error(`工具接口异常（HTTP ${res.status}），请稍后重试`);
    }
    if (body.code === 401) {
      tokenExpired();
      throw new Error(body.msg || '登录状态已过期，请重新登录');
    }
    if (body.code !== 200) throw new Error(body.msg || '查询失败');
    return body.data;
  }

  function fail(el, error) {
    el.innerHTML = `<p class="error">${esc(error.message)}</p>`;
  }

  function table(columns, rows) {
    if (!rows.length) return '<p class="muted">没有符合条件的数据</p>';
    const head = columns.map((c) => `<th>${esc(c[1])}</th>`).join('');
    const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${typeof c[2] === 'function' ? c[2](r) : esc(r[c[0]] ?? '--')}</td>`).join('')}</tr>`).join('');
    return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  }

  function pager(el, total, pageNum, pageSize, go) {
    const pages = Math.max(1, Math.ceil(total / pageSize));
    const div = document.createElement('div');
    div.className = 'pager';
    div.innerHTML = `<span class="muted">共 ${total} 条，第 ${pageNum}/${pages} 页</span><button class="plain" ${pageNum <= 1 ? 'disabled' : ''}>上一页</button><button class="plain" ${pageNum >= pages ? 'disabled' : ''}>下一页</button>`;
    const [prev, next] = div.querySelectorAll('button');
    prev.onclick = () => go(pageNum - 1);
    next.onclick = () => go(pageNum + 1);
    el.appendChild(div);
  }

  function scoreSegment(el) {
    el.innerHTML = `<div class="card"><form id="f"><label>分数 <input name="score" type="number" min="0" max="900" required placeholder="如 600" value="${esc(session.query.score ?? '')}"></label><button>查询位次</button></form><div id="r"></div></div><div class="card"><h3>一分一段表（每分一段）</h3><div id="t" class="muted">正在加载…</div></div>`;
    const r = el.querySelector('#r');
    el.querySelector('#f').onsubmit = async (e) => {
      e.preventDefault();
      const score = new FormData(e.target).get('score');
      try {
        const d = await api('score-segment', { score });
        r.innerHTML = `<p class="result">${esc(d.year)} 年${esc(d.track)} ${esc(d.score)} 分：累计位次 <b>${esc(d.cumulativeRank)}</b>，本分数 ${esc(d.count)} 人${d.note ? `（${esc(d.note)}）` : ''}</p>`;
      } catch (error) {
        fail(r, error);
      }
    };
    api('score-segment', {})
      .then((d) => {
        el.querySelector('#t').innerHTML = table(
          [
            ['score', '分数'],
            ['count', '本段人数'],
            ['cumulativeRank', '累计人数（位次）'],
          ],
          d.rows,
        );
      })
      .catch((error) => fail(el.querySelector('#t'), error));
  }

  async function batchLines(el) {
    el.innerHTML = '<div class="card" id="t">正在加载…</div>';
    try {
      const d = await api('batch-lines');
      el.querySelector('#t').innerHTML = table(
        [
          ['year', '年份'],
          ['track', '科类'],
          ['batch', '批次'],
          ['minScore', '分数线'],
        ],
        d.rows,
      );
    } catch (error) {
      fail(el.querySelector('#t'), error);
    }
  }

  function sameScore(el) {
    el.innerHTML = `<div class="card"><form id="f"><label>分数 <input name="score" type="number" min="0" max="900" required placeholder="如 600" value="${esc(session.query.score ?? '')}"></label><label>分差 <select name="range"><option value="0">同分</option><option value="1">±1</option><option value="2">±2</option></select></label><label>年份 <select name="year"><option value="">全部年份</option></select></label><button>查询去向</button></form><div id="r" class="muted">输入分数，查看历年最低录取分与之相同的院校专业。</div></div>`;
    const r = el.querySelector('#r');
    yearOptions(true)
      .then((o) => {
        el.querySelector('select[name=year]').innerHTML = o;
      })
      .catch(() => {});
    const load = async (pageNum) => {
      const f = new FormData(el.querySelector('#f'));
      try {
        const d = await api('same-score-years', { score: f.get('score'), range: f.get('range'), year: f.get('year'), pageNum, pageSize: 20 });
        r.className = '';
        const summary = d.years.length
          ? table(
              [
                ['year', '年份'],
                ['count', '专业数'],
                ['rankAtScore', `${esc(d.score)} 分当年位次`],
              ],
              d.years,
            )
          : '';
        r.innerHTML = `<p>最低分 ${esc(d.score)}${d.range ? `±${esc(d.range)}` : ''} 分的专业，历年共 ${esc(d.years.reduce((a, y) => a + y.count, 0))} 个</p>${summary}${table(
          [
            ['year', '年份'],
            ['schoolName', '院校'],
            ['majorName', '专业'],
            ['minScore', '最低分'],
            ['minRank', '最低位次'],
            ['planCount', '计划数'],
            ['city', '城市'],
          ],
          d.rows,
        )}`;
        pager(r, d.total, pageNum, 20, load);
      } catch (error) {
        fail(r, error);
      }
    };
    el.querySelector('#f').onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
  }

  function schools(el, tag) {
    el.innerHTML = `<div class="card"><form id="f"><label>年份 <select name="year"></select></label><label>院校名称 <input name="name" maxlength="40" placeholder="如 山东大学"></label><label>所在省份 <input name="province" maxlength="20" placeholder="如 山东"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    const load = async (pageNum) => {
      const f = new FormData(el.querySelector('#f'));
      try {
        const d = await api('school-lines', { year: f.get('year'), name: f.get('name'), province: f.get('province'), tag, pageNum, pageSize: 20 });
        r.innerHTML = table(
          [
            ['schoolCode', '代码'],
            ['name', '院校'],
            ['province', '省份'],
            ['city', '城市'],
            [
              'tags',
              '标签',
              (row) =>
                row.tags
                  ? row.tags
                      .split('|')
                      .map((t) => `<span class="tag">${esc(t)}</span>`)
                      .join('')
                  : '--',
            ],
            ['minScore', '最低分'],
            ['minRank', '最低位次'],
            ['majors', '专业数'],
            ['planTotal', '计划数'],
          ],
          d.rows,
        );
        pager(r, d.total, pageNum, 20, load);
      } catch (error) {
        fail(r, error);
      }
    };
    el.querySelector('#f').onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
    yearOptions(false)
      .then((o) => {
        el.querySelector('select[name=year]').innerHTML = o;
        load(1);
      })
      .catch((error) => fail(r, error));
  }

  function majorLines(el) {
    el.innerHTML = `<div class="card"><form id="f"><label>年份 <select name="year"><option value="">全部年份</option></select></label><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 计算机"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    yearOptions(true)
      .then((o) => {
        el.querySelector('select[name=year]').innerHTML = o;
      })
      .catch(() => {});
    const load = async (pageNum) => {
      const f = new FormData(el.querySelector('#f'));
      try {
        const d = await api('major-lines', { school: f.get('school'), major: f.get('major'), year: f.get('year'), pageNum, pageSize: 20 });
        r.innerHTML = table(
          [
            ['schoolName', '院校'],
            ['majorName', '专业'],
            ['year', '年份'],
            ['minScore', '最低分'],
            ['minRank', '最低位次'],
            ['planCount', '计划数'],
          ],
          d.rows,
        );
        pager(r, d.total, pageNum, 20, load);
      } catch (error) {
        fail(r, error);
      }
    };
    el.querySelector('#f').onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
    load(1);
  }

  /** The years there is data for, newest first, as <option>s (first = newest); '' adds an 全部年份 option first. */
  let yearsCache = null;
  async function yearOptions(all) {
    if (!yearsCache) {
      const d = await api('school-lines', { pageSize: 1 });
      yearsCache = d.years;
    }
    return `${all ? '<option value="">全部年份</option>' : ''}${yearsCache.map((y) => `<option value="${esc(y)}">${esc(y)} 年</option>`).join('')}`;
  }

  function plans(el, batch) {
    el.innerHTML = `<div class="card"><h3>各年招生计划（投档计划数）</h3><div id="s" class="muted">正在加载…</div></div><div class="card"><form id="f"><label>年份 <select name="year"></select></label><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 计算机"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    const load = async (pageNum) => {
      const f = new FormData(el.querySelector('#f'));
      try {
        const d = await api('plans', { year: f.get('year'), batch, school: f.get('school'), major: f.get('major'), pageNum, pageSize: 20 });
        const rows = batch ? d.summary.filter((x) => x.batch === batch) : d.summary;
        el.querySelector('#s').className = '';
        el.querySelector('#s').innerHTML = rows.length
          ? table(
              [
                ['year', '年份'],
                ['batch', '批次'],
                ['lines', '专业数'],
                ['planTotal', '计划数合计'],
              ],
              rows,
            )
          : `<p class="muted">已导入的${esc(d.province)}数据中没有${esc(batch)}的招生计划（现有数据为普通类常规批第 1 次志愿投档计划）。</p>`;
        r.innerHTML = table(
          [
            ['year', '年份'],
            ['batch', '批次'],
            ['schoolName', '院校'],
            ['majorCode', '专业代号'],
            ['majorName', '专业'],
            ['planCount', '计划数'],
            ['minScore', '最低分'],
            ['minRank', '最低位次'],
          ],
          d.rows,
        );
        pager(r, d.total, pageNum, 20, load);
      } catch (error) {
        fail(r, error);
      }
    };
    el.querySelector('#f').onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
    yearOptions(false)
      .then((o) => {
        el.querySelector('select[name=year]').innerHTML = o;
        load(1);
      })
      .catch((error) => fail(r, error));
  }

  function subjectSelection(el) {
    const boxes = ['物理', '化学', '生物', '历史', '地理', '思想政治']
      .map((x) => `<label><input type="checkbox" name="subjects" value="${x}"> ${x}</label>`)
      .join('');
    el.innerHTML = `<div class="card"><form id="f"><div>选考科目（最多 3 门） ${boxes}</div><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 临床医学"></label><label><input type="checkbox" name="onlyEligible" value="true"> 只看可报</label><button>查询</button></form><div id="r" class="muted">选择选考科目，查看各专业的选科要求以及能否报考。</div></div>`;
    const r = el.querySelector('#r');
    const load = async (pageNum) => {
      const f = new FormData(el.querySelector('#f'));
      try {
        const d = await api('subject-requirements', {
          subjects: f.getAll('subjects').join(','),
          school: f.get('school'),
          major: f.get('major'),
          onlyEligible: f.get('onlyEligible') ? 'true' : '',
          pageNum,
          pageSize: 20,
        });
        r.className = '';
        if (!d.year) {
          r.innerHTML = '<p class="muted">暂无选科要求数据，请管理员先导入选科要求。</p>';
          return;
        }
        r.innerHTML = `<p class="muted">${esc(d.year)} 年专业的选科要求（山东“物理、化学”表示两门都须选考）</p>${table(
          [
            ['schoolName', '院校'],
            ['majorName', '专业'],
            ['subjectReq', '选科要求'],
            [
              'eligible',
              '能否报考',
              (row) => (row.eligible == null ? '--' : row.eligible ? '<span class="tag">可报</span>' : '<span class="error">不可报</span>'),
            ],
            ['minScore', '最低分'],
            ['minRank', '最低位次'],
          ],
          d.rows,
        )}`;
        pager(r, d.total, pageNum, 20, load);
      } catch (error) {
        fail(r, error);
      }
    };
    el.querySelector('#f').onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
  }

  function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    const [name, qs] = hash.split('?');
    const data = new URLSearchParams(qs || '').get('data');
    if (data) {
      const decoded = decodeData(data);
      if (decoded && typeof decoded === 'object') session = { ...session, ...decoded, token: session.token || decoded.token || '', query: decoded.query || {} };
    }
    if (!session.token) {
      app.innerHTML = '<p class="muted">正在连接控制台…</p>';
      // The token never travels in the address: the console hands it over by postMessage once asked (handshake()).
      handshake().then(route, () => {
        app.innerHTML = '<p class="error">缺少登录信息，请从控制台的工具箱打开本工具。</p>';
      });
      return;
    }
    const tool = TOOLS[name];
    if (tool) {
      title.textContent = tool.title;
      document.title = `${tool.title} - 工具箱`;
      const province = document.getElementById('province');
      province.textContent = '山东';
      yearOptions(false)
        .then(() => {
          if (!yearsCache.length) return;
          const lo = Math.min(...yearsCache);
          const hi = Math.max(...yearsCache);
          province.textContent = `山东 · ${lo === hi ? hi : `${lo}–${hi}`} 年数据`;
        })
        .catch(() => {});
      tool.render(app);
      return;
    }
    const later = LATER[name];
    title.textContent = later || '工具箱';
    app.innerHTML = later
      ? `<div class="card"><p>${esc(later)}</p><p class="muted">现可使用：${Object.values(TOOLS)
          .map((t) => esc(t.title))
          .join('、')}。</p></div>`
      : `<div class="card"><p class="error">没有名为“${esc(name)}”的工具。</p></div>`;
  }

  window.addEventListener('hashchange', route);
  route();
})();
