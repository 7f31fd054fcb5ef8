// groundgraph's web explorer: one page over the service's HTTP API.
// Every piece of document or memory text reaches the page through textContent (el() and
// text nodes) or as a cytoscape label drawn on a canvas: never through innerHTML.
'use strict';

(function () {
  const KEY = 'groundgraph.key';
  const PAGE = 10;
  const OUTLINE_PAGE = 25;
  const SESSION_PICKER_LIMIT = 1000; // the server's largest page of GET /sessions
  const LABEL = 40;
  const SNIPPET = 300;
  const EDGE_COLOURS = {
    'parent-child': '#8c8c8c', next: '#b07aa1', reference: '#4e79a7', semantic: '#76b7b2',
    mentions: '#59a14f', 'co-occurs': '#edc948', causes: '#e15759', relation: '#f28e2b',
    supersedes: '#9c755f', derives: '#4e79a7',
  };
  const graphs = {};
  const state = { hits: [], titles: new Map(), scopes: [], asOf: null, facts: { offset: 0 } };

  // ------------------------------------------------------------------ helpers
  function $(id) { return document.getElementById(id); }

  function el(tag, props, ...kids) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (name === 'class') node.className = value;
      else if (name === 'text') node.textContent = value;
      else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value); // our own attribute names and values only
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) node.append(kid);
    return node;
  }

  function clip(text, most) {
    const s = String(text ?? '');
    return s.length > most ? s.slice(0, most - 1) + '…' : s;
  }

  function clear(node) { node.replaceChildren(); return node; }
  function pct(x) { return Math.round((x || 0) * 100) + '%'; }
  function num(x) { return (x || 0).toFixed(3); }

  function status(message, kind) {
    const line = $('status');
    line.textContent = message || '';
    line.className = kind || '';
  }

  class ApiError extends Error {
    constructor(code, message) { super(message); this.code = code; }
  }

  function detailText(detail) {
    if (typeof detail === 'string') return detail;
    if (Array.isArray(detail)) return detail.map((d) => (d && d.msg) || JSON.stringify(d)).join('; ');
    return JSON.stringify(detail);
  }

  async function api(method, path, body) {
    const headers = { Accept: 'application/json' };
    const key = sessionStorage.getItem(KEY);
    if (key) headers.Authorization = 'Bearer ' + key;
    const init = { method, headers, credentials: 'omit', cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(path, init);
    const data = await answer.json().catch(() => ({ detail: answer.statusText }));
    if (answer.status === 401) {
      sessionStorage.removeItem(KEY); // a refused key is not kept
      askKey(key ? 'That key was not accepted: try another.' : null);
      throw new ApiError(401, 'this server needs an API key');
    }
    if (!answer.ok) throw new ApiError(answer.status, detailText(data.detail));
    return data;
  }

  // Run an action of the page; its failure goes to the status line, never to a blank page.
  function guarded(action) {
    return async function (event) {
      if (event && event.preventDefault) event.preventDefault();
      status('working…', 'busy');
      try {
        await action.apply(this, arguments);
        status('');
      } catch (error) {
        status(error instanceof ApiError ? `${error.code}: ${error.message}` : String(error), 'error');
      }
    };
  }

  function nodeButton(nodeId, label, spans) {
    return el('button', {
      type: 'button', class: 'link', title: nodeId,
      onclick: guarded(() => openNode(nodeId, spans || [])),
    }, clip(label || nodeId, 120));
  }

  // A paged list: renders items[offset, offset + size) and Prev/Next buttons.
  function paged(list, pager, items, render, size) {
    const per = size || PAGE;
    let offset = 0;
    function draw() {
      clear(list);
      for (const item of items.slice(offset, offset + per)) list.append(render(item));
      pagerButtons(pager, offset, per, items.length, (next) => { offset = next; draw(); });
    }
    draw();
  }

  function pagerButtons(pager, offset, per, total, go) {
    clear(pager);
    if (total <= per) return;
    pager.append(
      el('button', { type: 'button', class: 'prev', onclick: () => go(Math.max(0, offset - per)) }, 'Prev'),
      el('span', {}, `${offset + 1}–${Math.min(total, offset + per)} of ${total}`),
      el('button', { type: 'button', class: 'next', onclick: () => { if (offset + per < total) go(offset + per); } }, 'Next'),
    );
  }

  // Text with some (start, end) spans marked: text nodes and <mark>, nothing parsed.
  function marked(text, spans) {
    const out = document.createDocumentFragment();
    const sorted = (spans || []).filter((s) => s[1] > s[0]).sort((x, y) => x[0] - y[0]);
    let at = 0;
    for (const [start, end] of sorted) {
      if (start < at) continue;
      out.append(text.slice(at, start), el('mark', {}, text.slice(start, end)));
      at = end;
    }
    out.append(text.slice(at));
    return out;
  }

  // ------------------------------------------------------------------ graphs
  function graphStyle() {
    const style = [
      { selector: 'node', style: {
        label: 'data(label)', 'font-size': 10, 'text-wrap': 'ellipsis', 'text-max-width': 120,
        'background-color': '#4e79a7', width: 14, height: 14, color: '#222',
      } },
      { selector: 'node[kind = "entity"]', style: { 'background-color': '#59a14f', shape: 'diamond' } },
      { selector: 'node[kind = "fact"]', style: { 'background-color': '#f28e2b' } },
      { selector: 'node.hit', style: { width: 24, height: 24, 'border-width': 3, 'border-color': '#222' } },
      { selector: 'node.seed', style: { shape: 'star', width: 22, height: 22 } },
      { selector: 'node.bad', style: { 'background-color': '#e15759' } },
      { selector: 'node.good', style: { 'background-color': '#59a14f' } },
      { selector: 'edge', style: {
        width: 2, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle',
        'line-color': '#bbb', 'target-arrow-color': '#bbb', label: 'data(label)', 'font-size': 8,
      } },
      { selector: 'edge.path', style: { width: 4 } },
      { selector: '.dim', style: { opacity: 0.25 } },
    ];
    for (const [type, colour] of Object.entries(EDGE_COLOURS)) {
      style.push({ selector: `edge[type = "${type}"]`, style: { 'line-color': colour, 'target-arrow-color': colour } });
    }
    return style;
  }

  function drawGraph(name, elements, layout) {
    if (graphs[name]) graphs[name].destroy();
    const many = elements.length > 300;
    const cy = window.cytoscape({
      container: $(name + '-graph'),
      elements,
      style: graphStyle(),
      layout: layout || (many ? { name: 'concentric', animate: false } : { name: 'cose', animate: false, randomize: false }),
      textureOnViewport: many,
      hideEdgesOnViewport: many,
    });
    graphs[name] = cy;
    return cy;
  }

  function addNode(elements, seen, id, label, kind, classes) {
    if (seen.has(id)) return;
    seen.add(id);
    elements.push({ group: 'nodes', data: { id, label: clip(label || id, LABEL), kind: kind || 'section' }, classes: classes || '' });
  }

  function addEdge(elements, seen, source, target, type, classes, label) {
    const id = `${source}->${target}:${type}`;
    if (seen.has(id) || source === target) return;
    seen.add(id);
    elements.push({ group: 'edges', data: { id, source, target, type, label: label || '' }, classes: classes || '' });
  }

  function kindOf(nodeId) {
    if (nodeId.startsWith('entity:')) return 'entity';
    if (nodeId.startsWith('fact:')) return 'fact';
    return 'section';
  }

  // ------------------------------------------------------------------ key and start
  function askKey(message) {
    $('key-panel').hidden = false;
    if (message) $('key-message').textContent = message;
    $('key-input').focus();
  }

  // The first call checks the key too: one round trip before the page is usable.
  async function start() {
    // One page of names (the server's largest): a store of more sessions lists the first
    // ones and says so; every read can still cover all of them ("all I may read").
    const page = await api('GET', '/sessions?limit=' + SESSION_PICKER_LIMIT);
    const sessions = page.sessions;
    $('key-panel').hidden = true;
    $('forget-key').hidden = !sessionStorage.getItem(KEY);
    state.scopes = sessions;
    for (const picker of [$('search-scope'), $('memory-session')]) {
      clear(picker).append(el('option', { value: '' }, 'all I may read'));
      for (const name of sessions) picker.append(el('option', { value: name }, name));
      if (page.next_cursor) {
        picker.append(el('option', { value: '', disabled: 'disabled' },
          'only the first ' + sessions.length + ' sessions are listed'));
      }
    }
  }

  // ------------------------------------------------------------------ search
  async function search() {
    const args = { query: $('search-query').value, max_results: 50 };
    state.lastQuery = args.query;
    const mode = $('search-mode').value;
    if (mode !== 'keyword') args.search_mode = mode;
    if ($('search-walker').value !== 'bounded') args.walker = $('search-walker').value;
    if ($('search-scope').value) args.scopes = [$('search-scope').value];
    const hits = await api('POST', '/graph/search', args);
    state.hits = hits;
    for (const hit of hits) state.titles.set(hit.nodeId, hit.title || hit.nodeId);
    if (!hits.length) {
      clear($('search-hits')).append(el('li', { class: 'empty' }, 'no hits'));
      clear($('search-pager'));
      return;
    }
    paged($('search-hits'), $('search-pager'), hits, hitItem);
  }

  function explanation(hit) {
    if (!hit.hops) {
      const rank = hit.seed && hit.seed.lexicalRank ? ` (BM25 seed #${hit.seed.lexicalRank})` : '';
      return `direct match${rank}`;
    }
    const via = state.titles.get(hit.via) || hit.via;
    return `reached through a ${hit.edgeType} edge from “${via}”, ${hit.hops} hop${hit.hops > 1 ? 's' : ''} from the seed`;
  }

  function hitItem(hit) {
    const terms = el('table', { class: 'terms' },
      el('tr', {}, el('th', {}, 'term'), el('th', {}, 'tf'), el('th', {}, 'idf'), el('th', {}, 'BM25')));
    for (const part of hit.terms || []) {
      terms.append(el('tr', {}, el('td', {}, part.term), el('td', {}, String(part.tf)), el('td', {}, num(part.idf)), el('td', {}, num(part.score))));
    }
    const path = el('p', { class: 'path' });
    hit.path.forEach((id, i) => {
      if (i) path.append(el('span', { class: 'edge' }, ` —${hit.edgeTypes[i - 1]}→ `));
      path.append(nodeButton(id, state.titles.get(id) || id));
    });
    return el('li', { class: 'hit', 'data-node': hit.nodeId },
      el('button', { type: 'button', class: 'hit-title', onclick: guarded(() => selectHit(hit)) }, clip(hit.title || hit.nodeId, 200)),
      el('span', { class: 'score' }, ` ${num(hit.score)} (lexical ${num(hit.lexicalScore)}, graph ${num(hit.graphScore)})`),
      el('p', { class: 'why' }, explanation(hit)),
      path,
      hit.terms && hit.terms.length ? terms : null,
      el('p', { class: 'snippet' }, clip(hit.content, SNIPPET)),
    );
  }

  async function selectHit(hit) {
    for (const item of document.querySelectorAll('#search-hits li')) item.classList.toggle('selected', item.dataset.node === hit.nodeId);
    const elements = [];
    const seen = new Set();
    hit.path.forEach((id, i) => {
      const classes = ['path', i === 0 ? 'seed' : '', id === hit.nodeId ? 'hit' : ''].join(' ');
      addNode(elements, seen, id, state.titles.get(id), kindOf(id), classes);
      if (i) addEdge(elements, seen, hit.path[i - 1], id, hit.edgeTypes[i - 1], 'path');
    });
    // The neighbourhood as the key reads it: a scoped key's view leaves out other tenants.
    const view = await api('POST', '/graph/show', { node_id: hit.nodeId });
    if (view.parentId) {
      addNode(elements, seen, view.parentId, view.parentTitle, kindOf(view.parentId), 'dim');
      addEdge(elements, seen, view.parentId, hit.nodeId, 'parent-child', 'dim');
    }
    for (const child of view.children || []) {
      addNode(elements, seen, child.nodeId, child.title, kindOf(child.nodeId), 'dim');
      addEdge(elements, seen, hit.nodeId, child.nodeId, 'parent-child', 'dim');
    }
    for (const link of view.links || []) {
      addNode(elements, seen, link.nodeId, link.title, kindOf(link.nodeId), 'dim');
      const [from, to] = link.direction === 'in' ? [link.nodeId, hit.nodeId] : [hit.nodeId, link.nodeId];
      addEdge(elements, seen, from, to, link.type, 'dim');
    }
    drawGraph('search', elements);
    legend($('search-legend'), elements, '');
  }

  function legend(box, elements, note) {
    clear(box);
    const types = new Set(elements.filter((e) => e.group === 'edges').map((e) => e.data.type));
    for (const type of types) {
      const swatch = el('span', { class: 'swatch edge-' + type.replace(/[^a-z-]/g, '') });
      box.append(el('span', { class: 'key' }, swatch, type));
    }
    if (note) box.append(el('p', {}, note));
  }

  // ------------------------------------------------------------------ node
  async function openNode(nodeId, spans) {
    show('node');
    $('node-id').value = nodeId;
    const view = await api('POST', '/graph/show', { node_id: nodeId });
    state.titles.set(view.nodeId, view.title || view.nodeId);
    const panel = clear($('node-panel'));
    const entities = (view.links || []).filter((l) => l.nodeId.startsWith('entity:'));
    const links = (view.links || []).filter((l) => !l.nodeId.startsWith('entity:'));
    panel.append(
      el('h2', { class: 'node-title' }, view.title || view.nodeId),
      el('p', { class: 'meta' }, `${view.type} · level ${view.level} · ${view.nodeId} · document `,
        el('button', { type: 'button', class: 'link', onclick: guarded(() => openOutline(view.docId)) }, view.docId)),
      el('div', { class: 'content prose' }, marked(view.content || '', spans)),
      whyNotForm(view.nodeId),
      el('h3', {}, 'Parent'),
      view.parentId ? nodeButton(view.parentId, view.parentTitle) : el('p', {}, '(none)'),
    );
    const sections = [['Children', view.children || [], (c) => nodeButton(c.nodeId, c.title)],
      ['Links', links, (l) => el('span', {}, `${l.type} ${l.direction === 'in' ? '←' : '→'} `, nodeButton(l.nodeId, l.title))],
      ['Entities', entities, (l) => nodeButton(l.nodeId, l.title)]];
    for (const [title, items, render] of sections) {
      const list = el('ul', { class: 'list ' + title.toLowerCase() });
      const pager = el('div', { class: 'pager' });
      panel.append(el('h3', {}, `${title} (${items.length})`), list, pager);
      paged(list, pager, items, (item) => el('li', {}, render(item)), 25);
    }
  }

  // A "why not?" for this node: the stage of the search it fell out at, and the one option
  // change that the server ran again to bring it in (POST /graph/why_not).
  function whyNotForm(nodeId) {
    const query = el('input', { class: 'why-query', placeholder: 'a query it did not come for', maxlength: '2000', required: '' });
    query.value = state.lastQuery || '';
    const out = el('div', { class: 'why-result' });
    const form = el('form', { class: 'bar why-not' }, query, el('button', { type: 'submit' }, 'Why not?'));
    form.addEventListener('submit', guarded(async () => {
      const answer = await api('POST', '/graph/why_not', { query: query.value, target: nodeId });
      clear(out).append(el('p', { class: 'why-stage' }, `${answer.stage}: ${answer.reason}`));
      const change = answer.counterfactual;
      if (change && change.parameter) {
        out.append(el('p', { class: 'why-change' },
          `rerun with ${change.parameter} = ${JSON.stringify(change.value)} (was ${JSON.stringify(change.was)}): rank ${change.rank}`));
      } else if (change) {
        out.append(el('p', { class: 'why-change' }, 'no single change of one option brings it in within the limits'));
      }
      for (const id of answer.nearest || []) out.append(nodeButton(id, id));
    }));
    return el('div', { class: 'why' }, form, out);
  }

  // ------------------------------------------------------------------ outline
  // The documents a page at a time from the server (POST /graph/documents/page): `stack`
  // holds the cursor of each page shown so far (null: the first), so Prev goes back.
  async function loadDocuments(stack) {
    const cursors = Array.isArray(stack) ? stack : [null];
    const body = { limit: OUTLINE_PAGE };
    if (cursors[cursors.length - 1]) body.cursor = cursors[cursors.length - 1];
    if (!$('outline-facts').checked) body.facts = false;
    const page = await api('POST', '/graph/documents/page', body);
    const list = clear($('doc-list'));
    if (!page.documents.length) list.append(el('li', { class: 'empty' }, 'no documents'));
    for (const doc of page.documents) {
      list.append(el('li', {},
        el('button', { type: 'button', class: 'link', onclick: guarded(() => openOutline(doc.docId)) }, clip(doc.title || doc.docId, 120)),
        el('span', { class: 'meta' }, ` ${doc.nodes} nodes`)));
    }
    const pager = clear($('doc-pager'));
    if (cursors.length === 1 && !page.next_cursor) return;
    const from = (cursors.length - 1) * OUTLINE_PAGE;
    pager.append(
      el('button', { type: 'button', class: 'prev', onclick: guarded(() => { if (cursors.length > 1) return loadDocuments(cursors.slice(0, -1)); }) }, 'Prev'),
      el('span', {}, `${from + 1}–${from + page.documents.length} of ${page.total}`),
      el('button', { type: 'button', class: 'next', onclick: guarded(() => { if (page.next_cursor) return loadDocuments([...cursors, page.next_cursor]); }) }, 'Next'),
    );
  }

  async function openOutline(docId) {
    show('outline');
    const text = await api('POST', '/graph/outline', { doc_id: docId });
    $('outline-title').textContent = docId;
    const rows = [];
    for (const line of String(text).split('\n')) {
      const found = /^(\s*)- \[([^\]]+)\] ?(.*)$/.exec(line);
      if (found) rows.push({ depth: Math.floor(found[1].length / 2), id: found[2], title: found[3] });
    }
    paged($('outline-tree'), $('outline-pager'), rows, (row) => el('li', { class: 'depth-' + Math.min(row.depth, 8) }, nodeButton(row.id, row.title || row.id)), 200);
  }

  // ------------------------------------------------------------------ bridge
  async function bridge() {
    const paths = await api('POST', '/graph/bridge', { a: $('bridge-a').value, b: $('bridge-b').value });
    const box = clear($('bridge-paths'));
    if (!paths.length) { box.append(el('p', { class: 'empty' }, 'no path between them')); return; }
    paths.forEach((path, i) => {
      const hops = el('ol', { class: 'hops' });
      path.hops.forEach((hop, j) => {
        const support = hop.support;
        hops.append(el('li', {},
          el('span', {}, `${path.names[j]} —${hop.label || hop.type}→ ${path.names[j + 1]}: `),
          support ? nodeButton(support.nodeId, `“${clip(support.text, 200)}” (${support.title})`, [[support.start, support.end]]) : el('em', {}, 'no cited sentence')));
      });
      box.append(el('div', { class: 'bridge-path' },
        el('button', { type: 'button', class: 'hit-title', onclick: () => drawBridge(path) }, `path ${i + 1}: strength ${num(path.strength)}`), hops));
    });
    drawBridge(paths[0]);
  }

  function drawBridge(path) {
    const elements = [];
    const seen = new Set();
    path.nodes.forEach((id, i) => {
      addNode(elements, seen, id, path.names[i], kindOf(id), i === 0 || i === path.nodes.length - 1 ? 'hit' : '');
      if (i) addEdge(elements, seen, path.nodes[i - 1], id, path.hops[i - 1].type, 'path', path.hops[i - 1].label || '');
    });
    drawGraph('bridge', elements, { name: 'breadthfirst', directed: true, animate: false });
  }

  // ------------------------------------------------------------------ memory
  function asOfValue() {
    const slider = $('memory-asof');
    if (!state.range || Number(slider.value) >= Number(slider.max)) return null;
    const [first, last] = state.range;
    return new Date(first + (last - first) * (Number(slider.value) / Number(slider.max))).toISOString();
  }

  async function loadFacts(offset) {
    state.asOf = asOfValue();
    const body = { offset: offset || 0, limit: PAGE };
    if (state.asOf) body.as_of = state.asOf;
    const page = await api('POST', '/facts/page', body);
    if (page.first && !state.range) state.range = [Date.parse(page.first), Date.parse(page.last)];
    $('memory-asof-label').textContent = state.asOf || 'now';
    const list = clear($('memory-facts'));
    if (!page.facts.length) list.append(el('li', { class: 'empty' }, 'no facts'));
    for (const fact of page.facts) {
      list.append(el('li', { class: fact.retiredAt ? 'fact retired' : 'fact', 'data-fact': fact.id },
        el('span', { class: 'text' }, clip(fact.text, 500)),
        el('span', { class: 'meta' }, ` ${fact.scopes.join(', ')} · ${fact.addedAt}${fact.retiredAt ? ' · retired ' + fact.retiredAt : ''} `),
        el('button', { type: 'button', class: 'small', onclick: guarded(() => trace(fact.text)) }, 'trace'),
        el('button', { type: 'button', class: 'small', onclick: guarded(() => whatIf(fact.text)) }, 'what if false')));
    }
    pagerButtons($('memory-pager'), page.offset, PAGE, page.total, guarded((next) => loadFacts(next)));
  }

  function session() { return $('memory-session').value || undefined; }

  async function recall() {
    const body = { query: $('recall-query').value, detailed: true, top_k: 20, session: session() };
    if (state.asOf) body.as_of = state.asOf;
    const found = await api('POST', '/query', body);
    paged($('recall-facts'), el('div'), found.facts, (fact) => el('li', {},
      el('span', { class: 'text' }, clip(fact.content, 500)),
      el('span', { class: 'meta' }, ` ${num(fact.score)} · ${(fact.scopes || []).join(', ')}${fact.retired ? ' · retired' : ''}`)), 20);
  }

  async function trace(content) {
    show('memory');
    if (content) $('trace-content').value = content;
    const body = { content: $('trace-content').value, direction: $('trace-direction').value, session: session() };
    const found = await api('POST', '/trace', body);
    const elements = [];
    const seen = new Set();
    const id = (phrase) => 'span:' + String(phrase).toLowerCase();
    addNode(elements, seen, id(found.origin), found.origin, 'fact', 'hit');
    const terminals = new Set((found.terminals || []).map(id));
    for (const hop of found.chain) {
      addNode(elements, seen, id(hop.cause), hop.cause, 'section', terminals.has(id(hop.cause)) ? 'seed' : '');
      addNode(elements, seen, id(hop.effect), hop.effect, 'section', terminals.has(id(hop.effect)) ? 'seed' : '');
      addEdge(elements, seen, id(hop.cause), id(hop.effect), 'causes', 'path', `d${hop.depth}`);
    }
    drawGraph('trace', elements, { name: 'breadthfirst', directed: true, animate: false });
    const list = clear($('trace-chain'));
    if (!found.chain.length) list.append(el('li', { class: 'empty' }, 'no causal links from here'));
    for (const hop of found.chain) {
      list.append(el('li', { class: 'hop' }, `${hop.depth}: ${hop.cause} → ${hop.effect} `, el('q', {}, hop.fact)));
    }
    if (found.truncated) list.append(el('li', { class: 'meta' }, 'the trace was cut at its depth'));
  }

  async function whatIf(content) {
    show('memory');
    if (content) $('trace-content').value = content;
    const found = await api('POST', '/what_if', { content: $('trace-content').value, direction: $('trace-direction').value, session: session() });
    const elements = [];
    const seen = new Set();
    const id = (phrase) => 'span:' + String(phrase).toLowerCase();
    for (const edge of found.pruned_edges || []) {
      addNode(elements, seen, id(edge.cause), edge.cause, 'section', 'hit');
      addNode(elements, seen, id(edge.effect), edge.effect, 'section', 'bad');
      addEdge(elements, seen, id(edge.cause), id(edge.effect), 'causes', 'dim', 'pruned');
    }
    for (const item of found.collapsed || []) addNode(elements, seen, id(item.span), item.span, 'section', 'bad');
    for (const item of found.survived || []) addNode(elements, seen, id(item.span), item.span, 'section', 'good');
    drawGraph('trace', elements, { name: 'breadthfirst', directed: true, animate: false });
    const box = clear($('whatif'));
    box.append(el('p', {}, 'Supposing false: ', el('q', {}, found.pruned)));
    for (const [title, items, kind] of [['Collapsed', found.collapsed || [], 'collapsed'], ['Survived', found.survived || [], 'survived']]) {
      const list = el('ul', { class: 'list ' + kind });
      for (const item of items) list.append(el('li', { class: kind }, `${item.span} `, el('q', {}, item.fact)));
      if (!items.length) list.append(el('li', { class: 'empty' }, 'none'));
      box.append(el('h3', {}, `${title} (${items.length})`), list);
    }
  }

  async function conflicts() {
    const ledger = await api('POST', '/graph/conflicts', {});
    if (!ledger.length) { clear($('conflicts')).append(el('li', { class: 'empty' }, 'no contradictions recorded')); return; }
    paged($('conflicts'), $('conflicts-pager'), ledger, (row) => el('li', { class: 'conflict' },
      el('p', { class: 'meta' }, `${row.at} · ${row.rule}`),
      el('p', {}, row.detail),
      el('p', {}, 'old: ', el('q', {}, row.old ? row.old.content : '?')),
      el('p', {}, 'new: ', el('q', {}, row.new ? row.new.content : '?'))));
  }

  // ------------------------------------------------------------------ grounding
  function verdict(claim) {
    if (claim.supported) return 'supported';
    return (claim.share || claim.support || 0) >= 0.25 ? 'partial' : 'unsupported';
  }

  function claimList(list, claims) {
    clear(list);
    claims.forEach((claim, i) => {
      const evidence = el('ul', { class: 'evidence' });
      for (const span of claim.evidence || []) {
        evidence.append(el('li', {}, nodeButton(span.nodeId, `“${clip(span.text, 300)}”`, [[span.start, span.end]]), el('span', { class: 'meta' }, ` ${span.nodeId}`)));
      }
      const missing = [...(claim.unsupportedWords || []), ...(claim.missingNumbers || []), ...(claim.missingNames || [])];
      list.append(el('li', { class: 'claim ' + verdict(claim), 'data-verdict': verdict(claim), 'data-claim': String(i) },
        el('p', {}, el('strong', {}, verdict(claim)), ` ${pct(claim.share ?? claim.support)}: `, el('span', { class: 'text' }, clip(claim.text, 1000))),
        missing.length ? el('p', { class: 'meta' }, 'not in the evidence: ' + missing.join(', ')) : null,
        (claim.rejectedBy || []).length ? el('p', { class: 'meta' }, 'rejected by: ' + claim.rejectedBy.join(', ')) : null,
        evidence));
    });
  }

  async function ground() {
    const answer = $('ground-answer').value;
    const found = await api('POST', '/graph/ground', { answer });
    $('ground-summary').textContent = `${found.supported} of ${found.claims.length} sentences supported; ${pct(found.share)} of the answer's weight grounded.`;
    const text = clear($('ground-text'));
    let at = 0;
    found.claims.forEach((claim, i) => {
      text.append(answer.slice(at, claim.start), el('span', { class: 'sentence ' + verdict(claim), 'data-claim': String(i) }, answer.slice(claim.start, claim.end)));
      at = claim.end;
    });
    text.append(answer.slice(at));
    claimList($('ground-claims'), found.claims);
  }

  // ------------------------------------------------------------------ reasoning
  async function reasoning() {
    const file = $('reason-file').files[0];
    const raw = file ? await file.text() : $('reason-json').value;
    let result;
    try { result = JSON.parse(raw); } catch (error) { throw new Error('that is not JSON: ' + error.message); }
    if (!result || !Array.isArray(result.thoughts)) throw new Error('not a reason result: it has no "thoughts" list');
    const elements = [];
    const seen = new Set();
    const byId = new Map(result.thoughts.map((t) => [String(t.id), t]));
    for (const thought of result.thoughts) {
      const classes = String(thought.id) === String(result.best) ? 'hit' : (thought.score >= 0.5 ? 'good' : 'bad');
      addNode(elements, seen, 'thought:' + thought.id, `${thought.operation} ${pct(thought.score)}`, 'fact', classes);
    }
    for (const thought of result.thoughts) {
      for (const parent of thought.parents || []) {
        if (byId.has(String(parent))) addEdge(elements, seen, 'thought:' + parent, 'thought:' + thought.id, 'derives', 'path');
      }
    }
    const cy = drawGraph('reason', elements, { name: 'breadthfirst', directed: true, animate: false });
    cy.on('tap', 'node', (event) => thoughtDetail(byId.get(event.target.id().slice(8)), result));
    thoughtDetail(byId.get(String(result.best)) || result.thoughts[0], result);
  }

  function thoughtDetail(thought, result) {
    const box = clear($('reason-detail'));
    box.append(el('h2', {}, 'Question'), el('p', {}, String(result.question || '')));
    box.append(el('h3', {}, 'Citations kept'));
    const cited = el('ul', { class: 'list citations' });
    for (const c of result.citations || []) cited.append(el('li', {}, nodeButton(c.nodeId, c.title || c.nodeId)));
    box.append(cited);
    if (!thought) return;
    box.append(el('h3', { class: 'thought-title' }, `Thought ${thought.id}: ${thought.operation}, ${pct(thought.score)} grounded`),
      el('p', { class: 'prose' }, String(thought.content || '')));
    const claims = el('ol', { class: 'list' });
    claimList(claims, (thought.claims || []).map((c) => ({ ...c, share: c.support })));
    box.append(claims);
  }

  // ------------------------------------------------------------------ views
  function show(name) {
    for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== 'view-' + name;
    for (const tab of document.querySelectorAll('#tabs button')) tab.classList.toggle('active', tab.dataset.view === name);
    if (graphs[name]) graphs[name].resize();
    if (name === 'outline' && !$('doc-list').children.length) guarded(() => loadDocuments())();
    if (name === 'memory' && !$('memory-facts').children.length) guarded(() => loadFacts(0))();
  }

  function wire() {
    for (const tab of document.querySelectorAll('#tabs button')) tab.addEventListener('click', () => show(tab.dataset.view));
    $('key-form').addEventListener('submit', guarded(async () => {
      sessionStorage.setItem(KEY, $('key-input').value.trim());
      $('key-input').value = '';
      await start();
    }));
    $('forget-key').addEventListener('click', () => { sessionStorage.removeItem(KEY); window.location.reload(); });
    $('search-form').addEventListener('submit', guarded(search));
    $('node-form').addEventListener('submit', guarded(() => openNode($('node-id').value.trim(), [])));
    $('outline-facts').addEventListener('change', guarded(() => loadDocuments()));
    $('bridge-form').addEventListener('submit', guarded(bridge));
    $('memory-asof').addEventListener('change', guarded(() => loadFacts(0)));
    $('memory-asof').addEventListener('input', () => { $('memory-asof-label').textContent = asOfValue() || 'now'; });
    $('recall-form').addEventListener('submit', guarded(recall));
    $('conflicts-load').addEventListener('click', guarded(conflicts));
    $('trace-form').addEventListener('submit', guarded(() => trace()));
    $('whatif-run').addEventListener('click', guarded(() => whatIf()));
    $('ground-form').addEventListener('submit', guarded(ground));
    $('reason-form').addEventListener('submit', guarded(reasoning));
  }

  // For the browser tests and the console: the graphs drawn, by view.
  window.groundgraphExplorer = { graphs };
  wire();
  show('search');
  guarded(start)();
})();
