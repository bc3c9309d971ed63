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
    'school-library': { title: '院校库', render: schoolLibrary },
    // scope: what the header says instead of the province's line years (these lists are national, of one year).
    'school-rank': { title: '院校排名', render: schoolRank, scope: '全国 · 软科中国大学排名 2026' },
    'subject-review': { title: '学科评估', render: subjectReview, scope: '全国 · 第四轮学科评估（2017年）' },
    'double-first-class': { title: '双一流', render: (el) => schools(el, '双一流') },
    'major-score': { title: '专业分数线', render: majorLines },
    'plan-general': { title: '普通批招生计划', render: (el) => plans(el, '') },
    'plan-advance': { title: '提前批招生计划', render: (el) => plans(el, '提前批') },
    'major-library': { title: '专业库', render: majorLibrary },
    'subject-selection': { title: '选科查询', render: subjectSelection },
  };
  // Tools with no data set behind them: each says why, instead of pretending to work.
  const LATER = {
    'career-library': {
      title: '职业库',
      why: '职业库需要各职业的工作内容、从业要求与对应专业的权威数据，本系统目前没有这类数据，因此暂不提供。',
      meanwhile: ['major-library'],
    },
    diagnosis: {
      title: '诊断换算',
      why: '诊断换算要把模拟考试成绩换算成高考位次，需要每次模拟考试的全省分数分布，本系统目前没有这类数据，因此暂不提供。',
      meanwhile: ['score-segment', 'same-score'],
    },
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
    fillYears(el, true).catch(() => {});
    pagedSearch(el.querySelector('#f'), r, async (f, pageNum) => {
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
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
  }

  function schools(el, tag) {
    el.innerHTML = `<div class="card"><form id="f"><label>年份 <select name="year"></select></label><label>院校名称 <input name="name" maxlength="40" placeholder="如 山东大学"></label><label>所在省份 <input name="province" maxlength="20" placeholder="如 山东"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    const load = pagedSearch(el.querySelector('#f'), r, async (f, pageNum) => {
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
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
    fillYears(el, false)
      .then(() => load(1))
      .catch((error) => fail(r, error));
  }

  function majorLines(el) {
    el.innerHTML = `<div class="card"><form id="f"><label>年份 <select name="year"><option value="">全部年份</option></select></label><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 计算机"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    fillYears(el, true).catch(() => {});
    const load = pagedSearch(el.querySelector('#f'), r, async (f, pageNum) => {
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
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
    load(1);
  }

  /**
   * A search form over a paged result r: show(form data, pageNum) renders one page into r and answers { total, page,
   * pageSize } for the pager; 查询 (submitting the form) reads page 1. Answers load(pageNum).
   */
  function pagedSearch(form, r, show) {
    const load = async (pageNum) => {
      try {
        const d = await show(new FormData(form), pageNum);
        pager(r, d.total, d.page, d.pageSize, load);
      } catch (error) {
        fail(r, error);
      }
    };
    form.onsubmit = (e) => {
      e.preventDefault();
      load(1);
    };
    return load;
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

  /** Fills the form's 年份 choice of a tool with the years of the imported data (all: 全部年份 first). */
  async function fillYears(el, all) {
    el.querySelector('select[name=year]').innerHTML = await yearOptions(all);
  }

  // ---- 院校百科 tools (issue 27): 院校排名, 学科评估, 院校库 and the school view they open. ----
  const GRADES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-'];
  const gradeTag = (grade) => `<span class="grade${grade === 'A+' ? ' grade-top' : ''}">${esc(grade)}</span>`;
  const schoolLink = (name, code) => (code ? `<a href="#" class="school-link" data-school="${esc(code)}">${esc(name)}</a>` : esc(name));
  const tagList = (tags) => (tags?.length ? tags.map((t) => `<span class="tag">${esc(t)}</span>`).join('') : '--');

  /**
   * A tool whose rows open a school: the list stays in #list (with its filters and page) and the school's view is
   * drawn in #view; 返回 shows the list again as it was.
   */
  function withSchoolView(el, html) {
    el.innerHTML = `<div id="list">${html}</div><div id="view" hidden></div>`;
    const list = el.querySelector('#list');
    const view = el.querySelector('#view');
    const open = (code) => {
      list.hidden = true;
      view.hidden = false;
      schoolView(view, code, () => {
        view.hidden = true;
        view.innerHTML = '';
        list.hidden = false;
      });
    };
    list.addEventListener('click', (e) => {
      const a = e.target.closest('a[data-school]');
      if (!a) return;
      e.preventDefault();
      open(a.dataset.school);
    });
    return list;
  }

  /** 院校排名: 软科中国大学排名 2026 主榜 with filters, paged; a school of the province opens its view. */
  function schoolRank(el) {
    const list = withSchoolView(
      el,
      `<div class="card"><form id="f"><label>所在省份 <select name="province"><option value="">全部省份</option></select></label><label>类型 <select name="category"><option value="">全部类型</option></select></label><label>标签 <select name="tag"><option value="">全部</option><option>双一流</option><option>985</option><option>211</option></select></label><label>院校名称 <input name="keyword" maxlength="40" placeholder="如 山东大学"></label><button>查询</button></form><div id="r" class="muted">正在加载…</div></div>`,
    );
    const r = list.querySelector('#r');
    let choices = false;
    const load = pagedSearch(list.querySelector('#f'), r, async (f, pageNum) => {
      const d = await api('ranking', {
        province: f.get('province'),
        category: f.get('category'),
        tag: f.get('tag'),
        keyword: f.get('keyword'),
        pageNum,
        pageSize: 20,
      });
      if (!choices) {
        choices = true;
        list.querySelector('select[name=province]').insertAdjacentHTML('beforeend', d.provinces.map((p) => `<option>${esc(p)}</option>`).join(''));
        list.querySelector('select[name=category]').insertAdjacentHTML('beforeend', d.categories.map((c) => `<option>${esc(c)}</option>`).join(''));
      }
      r.className = '';
      r.innerHTML = `<p class="muted">软科中国大学排名 ${esc(d.year)}（主榜）；财经、医药、语言、政法、民族、体育、艺术类院校另有分类排名，未收录。点击院校名称查看院校详情。</p>${table(
        [
          ['rank', `${esc(d.year)} 排名`],
          ['name', '院校', (row) => schoolLink(row.name, row.schoolCode)],
          ['province', '省份'],
          ['category', '类型'],
          ['score', '总分'],
          ['tags', '标签', (row) => tagList(row.tags)],
        ],
        d.rows,
      )}`;
      return d;
    });
    load(1);
  }

  /** 学科评估 (第四轮, 2017): one discipline's schools by grade, or one school's grades. */
  function subjectReview(el) {
    const list = withSchoolView(
      el,
      `<div class="card"><h3>按学科查看</h3><form id="d"><label>一级学科 <select name="discipline"></select></label><label>评估等级 <select name="grade"><option value="">全部等级</option>${GRADES.map((g) => `<option>${esc(g)}</option>`).join('')}</select></label><button>查看</button></form><div id="r" class="muted">正在加载…</div></div><div class="card"><h3>按院校查看</h3><form id="s"><label>院校名称 <input name="name" maxlength="40" minlength="2" required placeholder="如 北京大学"></label><button>查询院校</button></form><div id="sr" class="muted">输入院校名称，查看该校各一级学科的评估等级。</div></div>`,
    );
    const r = list.querySelector('#r');
    const sr = list.querySelector('#sr');
    const note = '第四轮学科评估（2017年，教育部学位与研究生教育发展中心）；只公布前 70% 的学科点。';
    const load = pagedSearch(list.querySelector('#d'), r, async (f, pageNum) => {
      const d = await api('evaluation', { discipline: f.get('discipline'), grade: f.get('grade'), pageNum, pageSize: 50 });
      r.className = '';
      r.innerHTML = `<p class="muted">${esc(d.discipline.code)} ${esc(d.discipline.name)}：${esc(note)}</p>${table(
        [
          ['grade', '等级', (row) => gradeTag(row.grade)],
          ['meaning', '含义（全国位置）'],
          ['school', '院校', (row) => schoolLink(row.school, row.schoolCode)],
        ],
        d.rows,
      )}`;
      return d;
    });
    list.querySelector('#s').onsubmit = async (e) => {
      e.preventDefault();
      try {
        const d = await api('school-evaluation', { name: new FormData(e.target).get('name') });
        sr.className = '';
        sr.innerHTML = d.schools.length
          ? d.schools
              .map(
                (x) =>
                  `<h4>${schoolLink(x.name, x.schoolCode)}${x.campusOf ? `<span class="muted">（${esc(x.campusOf)}的数据）</span>` : ''}</h4>${x.note ? `<p class="muted">${esc(x.note)}</p>` : ''}${gradeGroups(x.list)}`,
              )
              .join('')
          : `<p class="muted">${esc(note)}没有名称含“${esc(d.keyword)}”的院校的公布结果。</p>`;
      } catch (error) {
        fail(sr, error);
      }
    };
    api('evaluation-disciplines')
      .then((d) => {
        list.querySelector('select[name=discipline]').innerHTML = d.disciplines
          .map((x) => `<option value="${esc(x.code)}">${esc(x.code)} ${esc(x.name)}（${esc(x.count)} 所）</option>`)
          .join('');
        load(1);
      })
      .catch((error) => fail(r, error));
  }

  /** A school's grades grouped by grade, best first, each with its meaning (A+ stands out). */
  function gradeGroups(items) {
    const rows = GRADES.map((g) => ({ g, names: items.filter((x) => x.grade === g) })).filter((x) => x.names.length);
    if (!rows.length) return '<p class="muted">第四轮学科评估未公布该校的结果。</p>';
    return `<table class="grades"><tbody>${rows
      .map(
        ({ g, names }) =>
          `<tr${g === 'A+' ? ' class="top"' : ''}><td>${gradeTag(g)}</td><td class="muted">${esc(names[0].meaning)}</td><td>${names.map((x) => esc(x.disciplineName)).join('、')}</td></tr>`,
      )
      .join('')}</tbody></table>`;
  }

  /** 院校库: the province's schools with their 软科 rank, 双一流 and A+ counts; a row opens the school's view. */
  function schoolLibrary(el) {
    const list = withSchoolView(
      el,
      `<div class="card"><form id="f"><label>院校名称 <input name="name" maxlength="40" placeholder="如 山东大学"></label><label>所在省份 <input name="province" maxlength="20" placeholder="如 山东"></label><label>标签 <select name="tag"><option value="">全部</option><option>双一流</option><option>985</option><option>211</option></select></label><button>查询</button></form><div id="r" class="muted">正在加载…</div></div>`,
    );
    const r = list.querySelector('#r');
    const load = pagedSearch(list.querySelector('#f'), r, async (f, pageNum) => {
      const d = await api('school-library', { name: f.get('name'), province: f.get('province'), tag: f.get('tag'), pageNum, pageSize: 20 });
      r.className = '';
      r.innerHTML = `<p class="muted">在${esc(d.province)}招生的院校；排名为软科中国大学排名 ${esc(d.rankingYear)}（主榜），双一流为第二轮（2022年），A+ 为第四轮学科评估（2017年）。点击院校名称查看院校详情。</p>${table(
        [
          ['schoolCode', '代码'],
          ['name', '院校', (row) => schoolLink(row.name, row.schoolCode)],
          ['province', '所在地', (row) => esc([row.province, row.city].filter(Boolean).join(' ') || '--')],
          ['rank', `软科 ${esc(d.rankingYear)} 排名`],
          ['category', '类型'],
          ['doubleFirstClass', '双一流学科数'],
          ['aPlus', 'A+ 学科数', (row) => (row.evaluated ? esc(row.aPlus) : '--')],
          ['tags', '标签', (row) => tagList(row.tags)],
        ],
        d.rows,
      )}`;
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
    load(1);
  }

  /** One school's 院校百科 view: profile, 软科 rank, 双一流, 学科评估, and its lines in the province by programme. */
  async function schoolView(el, code, back) {
    el.innerHTML = '<div class="card"><button class="plain" id="back">返回列表</button> <span class="muted">正在加载…</span></div>';
    el.querySelector('#back').onclick = back;
    try {
      const d = await api('school-profile', { schoolCode: code });
      const s = d.school;
      const ref = d.reference;
      const h = d.history;
      const where = [s.province, s.city].filter(Boolean).join(' ');
      const facts = [where, s.level, s.ownership, s.authority ? `主管部门：${s.authority}` : ''].filter(Boolean).join(' · ');
      const rank = ref.bcur
        ? `<p class="result">软科中国大学排名 ${esc(ref.bcur.year)}：<b>${ref.bcur.rankNumeric == null ? esc(ref.bcur.rank) : `第 ${esc(ref.bcur.rank)} 名`}</b>（${esc(ref.bcur.category)}类${ref.bcur.score == null ? '' : `，总分 ${esc(ref.bcur.score)}`}）</p>`
        : '<p class="muted">未列入软科中国大学排名主榜（财经、医药、艺术等类院校另有分类排名）。</p>';
      const of = ref.campusOf ? `<p class="muted">排名、双一流与学科评估为${esc(ref.campusOf)}的数据（本校为其校区或院部）。</p>` : '';
      const dfc = ref.doubleFirstClass;
      const dfcHtml = dfc
        ? `<div class="card"><h3>第二轮“双一流”建设学科（${esc(dfc.year)}年公布）</h3>${dfc.selfDetermined ? '<p>自主确定建设学科并自行公布（教育部名单未列出具体学科）。</p>' : ''}${dfc.disciplines.length ? `<p>${dfc.disciplines.map((x) => `<span class="tag">${esc(x)}</span>`).join('')}</p>` : ''}</div>`
        : '';
      const ev = ref.evaluation;
      const evHtml = ev.list.length
        ? `<div class="card"><h3>${esc(ev.round)}（${esc(ev.year)}年）</h3>${ev.note ? `<p class="muted">${esc(ev.note)}</p>` : ''}${gradeGroups(ev.list)}</div>`
        : '';
      const years = [...h.years].reverse().slice(0, 4);
      const cell = (p, y) => {
        const l = p.lines.find((x) => x.year === y);
        return l ? `${esc(l.minScore)} 分<br><span class="muted">${l.minRank == null ? '--' : `${esc(l.minRank)} 名`}</span>` : '--';
      };
      const linesHtml = h.majors.length
        ? `<div class="card"><h3>在${esc(d.province)}的历年录取（按专业，最低分 / 最低位次）</h3>${table(
            [['majorName', '专业'], ...years.map((y) => [`y${y}`, `${y} 年`, (p) => cell(p, y)])],
            h.majors,
          )}</div>`
        : `<div class="card"><p class="muted">该校在${esc(d.province)}暂无录取数据。</p></div>`;
      el.innerHTML = `<div class="card"><button class="plain" id="back">返回列表</button><h2>${esc(s.name)}</h2><p>${tagList(ref.bcur?.tags?.length ? ref.bcur.tags : s.tags)} <span class="muted">${esc(facts || '所在地暂无数据')} · 院校代码 ${esc(s.schoolCode)}</span></p>${rank}${of}</div>${dfcHtml}${evHtml}${linesHtml}`;
      el.querySelector('#back').onclick = back;
    } catch (error) {
      fail(el, error);
      el.insertAdjacentHTML('afterbegin', '<button class="plain" id="back">返回列表</button>');
      el.querySelector('#back').onclick = back;
    }
  }

  function plans(el, batch) {
    el.innerHTML = `<div class="card"><h3>各年招生计划（投档计划数）</h3><div id="s" class="muted">正在加载…</div></div><div class="card"><form id="f"><label>年份 <select name="year"></select></label><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 计算机"></label><button>查询</button></form><div id="r"></div></div>`;
    const r = el.querySelector('#r');
    const load = pagedSearch(el.querySelector('#f'), r, async (f, pageNum) => {
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
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
    fillYears(el, false)
      .then(() => load(1))
      .catch((error) => fail(r, error));
  }

  function subjectSelection(el) {
    const boxes = ['物理', '化学', '生物', '历史', '地理', '思想政治']
      .map((x) => `<label><input type="checkbox" name="subjects" value="${x}"> ${x}</label>`)
      .join('');
    el.innerHTML = `<div class="card"><form id="f"><div>选考科目（最多 3 门） ${boxes}</div><label>院校名称 <input name="school" maxlength="40" placeholder="如 山东大学"></label><label>专业名称 <input name="major" maxlength="40" placeholder="如 临床医学"></label><label><input type="checkbox" name="onlyEligible" value="true"> 只看可报</label><button>查询</button></form><div id="r" class="muted">选择选考科目，查看各专业的选科要求以及能否报考。</div></div>`;
    const r = el.querySelector('#r');
    pagedSearch(el.querySelector('#f'), r, async (f, pageNum) => {
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
      return { total: d.total, page: pageNum, pageSize: 20 };
    });
  }

  /**
   * 专业库 (issue 27): the 2025 本科专业目录 by 门类 → 专业类, searchable by name or code; a major opens its encyclopaedia
   * view — catalogue facts, the province's lines that teach it (with their year) and each school's 学科评估 grade.
   */
  function majorLibrary(el) {
    el.innerHTML = `<div id="major-view"></div><div class="card" id="major-list"><form id="f"><label>门类 <select name="discipline"><option value="">全部门类</option></select></label><label>专业类 <select name="cls"><option value="">全部专业类</option></select></label><label>专业名称或代码 <input name="keyword" maxlength="40" placeholder="如 计算机 或 0809"></label><button>查询</button></form><div id="r" class="muted">正在加载…</div></div>`;
    const form = el.querySelector('#f');
    const r = el.querySelector('#r');
    const view = el.querySelector('#major-view');
    let tree = [];
    const fillClasses = () => {
      const d = form.discipline.value;
      const classes = tree.filter((x) => !d || x.code === d).flatMap((x) => x.classes);
      form.cls.innerHTML = `<option value="">全部专业类</option>${classes.map((c) => `<option value="${esc(c.code)}">${esc(c.code)} ${esc(c.name)}（${c.majorCount}）</option>`).join('')}`;
    };
    form.discipline.onchange = () => {
      fillClasses();
      load(1);
    };
    form.cls.onchange = () => load(1);
    const flags = (m) => `${m.special ? '<span class="tag">特设</span>' : ''}${m.controlled ? '<span class="tag tag-warn">国控</span>' : ''}`;
    const load = pagedSearch(form, r, async (f, pageNum) => {
      const d = await api('major-catalogue', { discipline: f.get('discipline'), cls: f.get('cls'), keyword: f.get('keyword'), pageNum, pageSize: 50 });
      if (!tree.length) {
        tree = d.tree;
        form.discipline.innerHTML = `<option value="">全部门类</option>${tree.map((x) => `<option value="${esc(x.code)}">${esc(x.code)} ${esc(x.name)}</option>`).join('')}`;
        fillClasses();
      }
      r.className = '';
      r.innerHTML = `<p class="muted">普通高等学校本科专业目录（${esc(d.edition)}年），点击专业名称查看专业百科</p>${table(
        [
          ['code', '专业代码'],
          ['name', '专业名称', (m) => `<a href="#" class="major-link" data-name="${esc(m.name)}">${esc(m.name)}</a>${flags(m)}`],
          ['disciplineName', '门类'],
          ['className', '专业类'],
          ['degrees', '学位授予门类', (m) => esc(m.degrees.join(' 或 '))],
        ],
        d.rows,
      )}`;
      for (const a of r.querySelectorAll('a.major-link'))
        a.onclick = (e) => {
          e.preventDefault();
          openMajor(a.dataset.name);
        };
      return { total: d.total, page: pageNum, pageSize: 50 };
    });
    async function openMajor(name) {
      view.innerHTML = '<div class="card muted">正在加载专业百科…</div>';
      try {
        const d = await api('major-encyclopaedia', { name });
        const m = d.facts.major;
        const row = (k, v) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`;
        const facts = [
          m ? row('专业代码', esc(m.code)) : '',
          row('门类', `${esc(d.facts.disciplineName)}（${esc(d.facts.disciplineCode)}）`),
          row('专业类', `${esc(d.facts.className)}（${esc(d.facts.classCode)}）`),
          m ? row('学位授予门类', esc(m.degrees.join(' 或 '))) : '',
          m ? row('特设专业', m.special ? '是（满足经济社会发展特殊需求所设置的专业，代码后缀 T）' : '否') : '',
          m ? row('国家控制布点专业', m.controlled ? '是（设置需经教育部审批，代码后缀 K）' : '否') : '',
          m?.note ? row('目录注释', esc(m.note)) : '',
          row('依据', `普通高等学校本科专业目录（${esc(d.facts.edition)}年）`),
        ].join('');
        const ev = d.discipline ? `${esc(d.discipline.name)}学科评估（${d.evaluationYear}）` : `学科评估（${d.evaluationYear}）`;
        const grade = (s) => {
          if (!s.evaluation) return '<span class="muted">无对应学科</span>';
          if (!s.evaluation.grade) return '<span class="muted">未上榜</span>';
          return `<span class="grade${s.evaluation.grade.startsWith('A') ? ' grade-top' : ''}">${esc(s.evaluation.grade)}</span>`;
        };
        view.innerHTML = `<div class="card" id="major-detail"><button class="plain" id="back">返回专业列表</button><h2>${esc(m ? m.name : d.facts.className)}</h2><p>${esc(d.text)}</p><table class="facts">${facts}</table><h3>${esc(d.province)}开设院校（${esc(d.year)}年投档，${d.schoolCount} 所）</h3>${
          d.discipline ? '' : '<p class="muted">本专业没有对应的第四轮学科评估一级学科，不显示评估等级。</p>'
        }${table(
          [
            ['schoolName', '院校'],
            ['majorName', '投档专业（类）', (s) => `${s.via === 'class' ? `<span class="tag">按${esc(d.facts.className)}招生</span>` : ''}${esc(s.majorName)}`],
            ['minScore', `${esc(d.year)}年最低分`],
            ['minRank', `${esc(d.year)}年最低位次`],
            ['grade', ev, grade],
          ],
          d.schools,
        )}</div>`;
        view.querySelector('#back').onclick = () => {
          view.innerHTML = '';
        };
        view.scrollIntoView();
      } catch (error) {
        fail(view, error);
      }
    }
    load(1);
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
      province.textContent = tool.scope || '山东';
      if (!tool.scope)
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
    if (later && typeof later === 'object') {
      // A tool with no data behind it: a notice page (what is missing, what to use meanwhile), not an error.
      title.textContent = later.title;
      document.title = `${later.title} - 工具箱`;
      const links = later.meanwhile.map((k) => `<a class="tool-link" href="#/${esc(k)}">${esc(TOOLS[k].title)}</a>`).join('、');
      app.innerHTML = `<div class="card notice" data-notice="${esc(name)}"><h2 class="notice-title">暂无数据</h2><p>${esc(later.why)}</p><p>在此之前可以使用：${links}。</p></div>`;
      return;
    }
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
