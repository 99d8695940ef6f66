// The inbox page's script: signs in with the link's code, renders each question's form from its schema, follows the
// SSE view live and posts answers. It builds the DOM with textContent and properties only, never HTML from the server.
export const INBOX_SCRIPT = String.raw`'use strict';
(function () {
  var BASE = '/_frontmcp';
  var $ = function (id) { return document.getElementById(id); };
  var cards = new Map();
  var answered = new Map();
  var source = null;

  function h(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      var v = props[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = String(v);
      else if (k === 'className') node.className = v;
      else if (k.indexOf('on') === 0) node.addEventListener(k.slice(2), v);
      else if (k in node && k !== 'list') node[k] = v;
      else node.setAttribute(k, String(v));
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }

  function setStatus(text) { $('status').textContent = text || ''; }
  function when(ms) { return new Date(ms).toLocaleString(); }

  function choicesOf(prop) {
    if (Array.isArray(prop.enum)) return prop.enum.map(function (v, i) { return { value: v, title: (prop.enumNames && prop.enumNames[i]) || String(v) }; });
    var list = prop.oneOf || prop.anyOf;
    if (Array.isArray(list) && list.every(function (o) { return o && 'const' in o; }))
      return list.map(function (o) { return { value: o.const, title: o.title || String(o.const) }; });
    return null;
  }

  function labelOf(name, prop, required) { return (prop.title || name) + (required ? ' *' : ''); }

  // One input per property; read() turns what the person entered back into the schema's types.
  function field(qid, name, prop, required) {
    var id = 'f-' + qid + '-' + name;
    var hint = prop.description ? h('span', { className: 'hint', text: prop.description }) : null;
    var choices = choicesOf(prop);
    var items = prop.type === 'array' ? choicesOf(prop.items || {}) : null;
    if (items) {
      var boxes = items.map(function (c) {
        var checked = Array.isArray(prop.default) && prop.default.indexOf(c.value) >= 0;
        var box = h('input', { type: 'checkbox', checked: checked });
        return { box: box, value: c.value, label: h('label', {}, [box, ' ' + c.title]) };
      });
      return {
        node: h('fieldset', { className: 'field' }, [h('legend', { text: labelOf(name, prop, required) }), hint].concat(boxes.map(function (b) { return b.label; }))),
        read: function () { return boxes.filter(function (b) { return b.box.checked; }).map(function (b) { return b.value; }); },
      };
    }
    if (choices) {
      var select = h('select', { id: id, required: required }, (required && prop.default === undefined ? [] : [h('option', { value: '', text: '—' })]).concat(
        choices.map(function (c, i) { return h('option', { value: String(i), text: c.title, selected: prop.default === c.value }); })));
      return {
        node: h('div', { className: 'field' }, [h('label', { htmlFor: id, text: labelOf(name, prop, required) }), hint, select]),
        read: function () { return select.value === '' ? undefined : choices[Number(select.value)].value; },
      };
    }
    if (prop.type === 'boolean') {
      var check = h('input', { type: 'checkbox', id: id, checked: prop.default === true });
      return {
        node: h('div', { className: 'field' }, [h('label', { className: 'check', htmlFor: id }, [check, labelOf(name, prop, false)]), hint]),
        read: function () { return check.checked; },
      };
    }
    var input;
    if (prop.type === 'number' || prop.type === 'integer') {
      input = h('input', { type: 'number', id: id, step: prop.type === 'integer' ? '1' : 'any', min: prop.minimum, max: prop.maximum, required: required });
      if (typeof prop.default === 'number') input.value = String(prop.default);
      return {
        node: h('div', { className: 'field' }, [h('label', { htmlFor: id, text: labelOf(name, prop, required) }), hint, input]),
        read: function () { return input.value === '' ? undefined : Number(input.value); },
      };
    }
    var types = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };
    var type = types[prop.format] || 'text';
    var long = type === 'text' && (prop.maxLength === undefined || prop.maxLength > 200);
    input = long ? h('textarea', { id: id, rows: 2 }) : h('input', { type: type, id: id });
    input.required = required;
    if (prop.minLength !== undefined) input.minLength = prop.minLength;
    if (prop.maxLength !== undefined) input.maxLength = prop.maxLength;
    if (typeof prop.default === 'string') input.value = type === 'datetime-local' ? prop.default.slice(0, 16) : prop.default;
    return {
      node: h('div', { className: 'field' }, [h('label', { htmlFor: id, text: labelOf(name, prop, required) }), hint, input]),
      read: function () {
        if (input.value === '') return required ? '' : undefined;
        return type === 'datetime-local' ? new Date(input.value).toISOString() : input.value;
      },
    };
  }

  function badges(card, q) {
    card.meta.replaceChildren(
      h('span', { className: 'badge' + (q.state === 'answered' ? ' answered' : q.waiting ? ' waiting' : ''),
        text: q.state === 'answered' ? (q.waiting ? 'answered · being delivered' : 'answered · waits for the next call') : q.waiting ? 'a call is waiting now' : 'no call waiting' }),
      h('span', { text: 'key ' + q.key }),
      h('span', { text: 'asked ' + when(q.createdAt) }),
      h('span', { text: 'expires ' + when(q.expiresAt) }));
    if (q.from) card.meta.appendChild(h('span', { className: 'from', text: originOf(q.from) }));
  }

  // Where a question came from and why it is here (the unanswered-question policy, or a tool's persist).
  var REASONS = new Map([
    ['persist', 'the tool keeps it until you answer'],
    ['client-never-answered', 'the client never answered it'],
    ['client-cannot-show-forms', 'the client cannot show forms'],
    ['filed-with-round', 'asked in the client too: the first answer counts'],
  ]);
  function originOf(from) {
    var why = REASONS.get(from.reason) || 'asked by the tool';
    if (from.reason === 'client-never-answered' && typeof from.afterMs === 'number') why += ' within ' + Math.round(from.afterMs / 1000) + ' s';
    return 'from ' + String(from.tool) + ' · ' + why;
  }

  function createCard(q) {
    var schema = q.requestedSchema || {};
    var props = schema.properties || {};
    var required = Array.isArray(schema.required) ? schema.required : [];
    var fields = Object.keys(props).map(function (name) { return { name: name, f: field(q.id, name, props[name] || {}, required.indexOf(name) >= 0) }; });
    var result = h('p', { className: 'result', role: 'status' });
    var buttons = [
      h('button', { type: 'submit', className: 'primary', text: 'Submit' }),
      h('button', { type: 'button', text: 'Decline', onclick: function () { send('decline'); } }),
      h('button', { type: 'button', text: 'Cancel', onclick: function () { send('cancel'); } }),
    ];
    var form = h('form', { noValidate: false, onsubmit: function (e) { e.preventDefault(); send('accept'); } },
      fields.map(function (x) { return x.f.node; }).concat([h('div', { className: 'actions' }, buttons)]));
    var card = { id: q.id, q: q, meta: h('p', { className: 'meta' }), result: result, form: form };
    card.node = h('article', { className: 'question', 'data-id': q.id }, [h('h2', { text: q.message }), card.meta, form, result]);

    function send(action) {
      var body = { action: action };
      if (action === 'accept') {
        if (!form.reportValidity()) return;
        body.content = Object.create(null); // keyed by the schema's field names, so __proto__ is a field like any other
        fields.forEach(function (x) { var v = x.f.read(); if (v !== undefined) body.content[x.name] = v; });
      }
      buttons.forEach(function (b) { b.disabled = true; });
      result.className = 'result';
      result.textContent = 'Sending…';
      // The live view may drop the question (delivered) before this reply comes: it is logged as ours either way.
      answered.set(q.id, { message: q.message, action: action, where: 'sent' });
      fetch(BASE + '/questions/' + encodeURIComponent(q.id) + '/answer', {
        method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
      }).then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (data) { return { status: r.status, data: data }; });
      }).then(function (res) {
        if (res.status === 200) {
          var where = res.data.delivered === 'waiting-call' ? 'the waiting call gets it now' : 'it waits for the next call that asks ' + q.key;
          answered.set(q.id, { message: q.message, action: action, where: where });
          result.className = 'result ok';
          result.textContent = (action === 'accept' ? 'Accepted' : action === 'decline' ? 'Declined' : 'Cancelled') + ': ' + where + '.';
          Array.prototype.forEach.call(form.elements, function (el) { el.disabled = true; });
          return;
        }
        answered.delete(q.id);
        buttons.forEach(function (b) { b.disabled = false; });
        result.className = 'result error';
        if (res.status === 401) return signedOut();
        result.textContent = res.status === 409 ? 'This question already has an answer.' : res.status === 404 ? 'This question is gone.' : (res.data.message || ('Error ' + res.status));
      }).catch(function () {
        answered.delete(q.id);
        buttons.forEach(function (b) { b.disabled = false; });
        result.className = 'result error';
        result.textContent = 'Could not reach the server. Try again.';
      });
    }
    return card;
  }

  function logDone(id, fallback) {
    var a = answered.get(id) || fallback;
    answered.delete(id);
    $('done').hidden = false;
    $('log').prepend(h('li', { text: a.message + ' — ' + a.action + (a.delivered ? ', delivered to the call that asked' : ', ' + a.where) }));
  }

  function render(view) {
    $('who').textContent = 'Questions for ' + view.signedInAs;
    var seen = new Set();
    view.questions.forEach(function (q) {
      seen.add(q.id);
      var card = cards.get(q.id);
      if (!card) {
        card = createCard(q);
        cards.set(q.id, card);
        $('questions').appendChild(card.node);
      }
      card.q = q;
      badges(card, q);
    });
    cards.forEach(function (card, id) {
      if (seen.has(id)) return;
      card.node.remove();
      cards.delete(id);
      var mine = answered.get(id);
      if (mine) { mine.delivered = true; logDone(id, mine); }
      else if (card.q.state === 'answered') logDone(id, { message: card.q.message, action: 'answered elsewhere', delivered: true });
    });
    $('empty').hidden = cards.size > 0;
  }

  var linkFailed = false;
  function signedOut() {
    if (source) source.close();
    $('live').className = 'live';
    $('live').textContent = 'signed out';
    $('who').textContent = 'Not signed in';
    if (!linkFailed) setStatus('Open the one-time inbox link the server printed for you (each link works once).');
  }

  function connect() {
    source = new EventSource(BASE + '/questions/events');
    source.addEventListener('open', function () { $('live').className = 'live on'; $('live').textContent = 'live'; setStatus(''); });
    source.addEventListener('questions', function (e) { render(JSON.parse(e.data)); });
    source.addEventListener('error', function () {
      $('live').className = 'live';
      $('live').textContent = 'reconnecting';
      fetch(BASE + '/questions', { credentials: 'same-origin' }).then(function (r) { if (r.status === 401) signedOut(); }).catch(function () {});
    });
  }

  function start() {
    var match = /(?:^#|&)code=([A-Za-z0-9_-]+)/.exec(location.hash);
    var signIn = Promise.resolve();
    if (match) {
      history.replaceState(null, '', location.pathname + location.search);
      signIn = fetch(BASE + '/sign-in', {
        method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: match[1] }),
      }).then(function (r) {
        if (r.ok) return;
        linkFailed = true;
        setStatus('This link was already used or has expired. Ask for a new one.');
      });
    }
    signIn.then(function () { return fetch(BASE + '/questions', { credentials: 'same-origin' }); }).then(function (r) {
      if (r.status === 401) return signedOut();
      return r.json().then(function (view) { render(view); connect(); });
    }).catch(function () { setStatus('Could not reach the server.'); });
  }

  start();
})();
`;
