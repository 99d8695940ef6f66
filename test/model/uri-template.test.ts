// RFC 6570 URI templates: every example of the RFC's section 3.2 expands as the RFC says, and resource templates
// match URIs back to their variables with every operator, prefix and explode.
import { describe, expect, it } from 'vitest';
import { expandUriTemplate } from 'parley-mcp';
import { parseUriTemplate } from '../../src/model/uri-template';

// The RFC's example variables (section 3.2).
const VALUES = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: null,
};

// The RFC's expansions, section by section (3.2.1 to 3.2.9): [template, expansion].
const EXPANSIONS: Record<string, [string, string][]> = {
  'variable expansion': [
    ['{count}', 'one,two,three'],
    ['{count*}', 'one,two,three'],
    ['{/count}', '/one,two,three'],
    ['{/count*}', '/one/two/three'],
    ['{;count}', ';count=one,two,three'],
    ['{;count*}', ';count=one;count=two;count=three'],
    ['{?count}', '?count=one,two,three'],
    ['{?count*}', '?count=one&count=two&count=three'],
    ['{&count*}', '&count=one&count=two&count=three'],
  ],
  'simple string expansion': [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{half}', '50%25'],
    ['O{empty}X', 'OX'],
    ['O{undef}X', 'OX'],
    ['{x,y}', '1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['?{x,empty}', '?1024,'],
    ['?{x,undef}', '?1024'],
    ['?{undef,y}', '?768'],
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
    ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ],
  'reserved expansion': [
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+half}', '50%25'],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
    ['{+base}index', 'http://example.com/home/index'],
    ['O{+empty}X', 'OX'],
    ['O{+undef}X', 'OX'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['up{+path}{var}/here', 'up/foo/barvalue/here'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{+list}', 'red,green,blue'],
    ['{+list*}', 'red,green,blue'],
    ['{+keys}', 'semi,;,dot,.,comma,,'],
    ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ],
  'fragment expansion': [
    ['{#var}', '#value'],
    ['{#hello}', '#Hello%20World!'],
    ['{#half}', '#50%25'],
    ['foo{#empty}', 'foo#'],
    ['foo{#undef}', 'foo'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['{#list}', '#red,green,blue'],
    ['{#list*}', '#red,green,blue'],
    ['{#keys}', '#semi,;,dot,.,comma,,'],
    ['{#keys*}', '#semi=;,dot=.,comma=,'],
  ],
  'label expansion with dot-prefix': [
    ['{.who}', '.fred'],
    ['{.who,who}', '.fred.fred'],
    ['{.half,who}', '.50%25.fred'],
    ['www{.dom*}', 'www.example.com'],
    ['X{.var}', 'X.value'],
    ['X{.empty}', 'X.'],
    ['X{.undef}', 'X'],
    ['X{.var:3}', 'X.val'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
    ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
    ['X{.empty_keys}', 'X'],
    ['X{.empty_keys*}', 'X'],
  ],
  'path segment expansion': [
    ['{/who}', '/fred'],
    ['{/who,who}', '/fred/fred'],
    ['{/half,who}', '/50%25/fred'],
    ['{/who,dub}', '/fred/me%2Ftoo'],
    ['{/var}', '/value'],
    ['{/var,empty}', '/value/'],
    ['{/var,undef}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{/var:1,var}', '/v/value'],
    ['{/list}', '/red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
    ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ],
  'path-style parameter expansion': [
    ['{;who}', ';who=fred'],
    ['{;half}', ';half=50%25'],
    ['{;empty}', ';empty'],
    ['{;v,empty,who}', ';v=6;empty;who=fred'],
    ['{;v,bar,who}', ';v=6;who=fred'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{;x,y,undef}', ';x=1024;y=768'],
    ['{;hello:5}', ';hello=Hello'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
    ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ],
  'form-style query expansion': [
    ['{?who}', '?who=fred'],
    ['{?half}', '?half=50%25'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['{?x,y,undef}', '?x=1024&y=768'],
    ['{?var:3}', '?var=val'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
    ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ],
  'form-style query continuation': [
    ['{&who}', '&who=fred'],
    ['{&half}', '&half=50%25'],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    ['{&var:3}', '&var=val'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
    ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
    ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  ],
};

describe.each(Object.entries(EXPANSIONS))('RFC 6570 %s', (_section, examples) => {
  it.each(examples)('expands %s to %s', (template, expansion) => {
    expect(expandUriTemplate(template, VALUES)).toBe(expansion);
  });
});

// The RFC's expansions read back: [template, URI, the variables a match gives].
const MATCHES: [string, string, Record<string, string | string[]>][] = [
  ['{var}', 'value', { var: 'value' }],
  ['{hello}', 'Hello%20World%21', { hello: 'Hello World!' }],
  ['{half}', '50%25', { half: '50%' }],
  ['{x,y}', '1024,768', { x: '1024', y: '768' }],
  ['{x,hello,y}', '1024,Hello%20World%21,768', { x: '1024', hello: 'Hello World!', y: '768' }],
  ['?{x,empty}', '?1024,', { x: '1024', empty: '' }],
  ['{var:3}', 'val', { var: 'val' }],
  ['{list}', 'red,green,blue', { list: 'red,green,blue' }],
  ['{list*}', 'red,green,blue', { list: ['red', 'green', 'blue'] }],
  ['{+base}index', 'http://example.com/home/index', { base: 'http://example.com/home/' }],
  ['{+path}/here', '/foo/bar/here', { path: '/foo/bar' }],
  ['here?ref={+path}', 'here?ref=/foo/bar', { path: '/foo/bar' }],
  ['{+path,x}/here', '/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
  ['{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
  ['foo{#undef}', 'foo', {}],
  ['{.who,who}', '.fred.fred', { who: 'fred' }],
  ['{.half,who}', '.50%25.fred', { half: '50%', who: 'fred' }],
  ['www{.dom*}', 'www.example.com', { dom: ['example', 'com'] }],
  ['X{.undef}', 'X', {}],
  ['{/who,dub}', '/fred/me%2Ftoo', { who: 'fred', dub: 'me/too' }],
  ['{/var,x}/here', '/value/1024/here', { var: 'value', x: '1024' }],
  ['{/var:1,var}', '/v/value', { var: 'value' }],
  ['{/list*}', '/red/green/blue', { list: ['red', 'green', 'blue'] }],
  ['{;v,empty,who}', ';v=6;empty;who=fred', { v: '6', empty: '', who: 'fred' }],
  ['{;x,y,undef}', ';x=1024;y=768', { x: '1024', y: '768' }],
  ['{;list*}', ';list=red;list=green;list=blue', { list: ['red', 'green', 'blue'] }],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C', { keys: ['semi=;', 'dot=.', 'comma=,'] }],
  ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
  ['{?var:3}', '?var=val', { var: 'val' }],
  ['{?list*}', '?list=red&list=green&list=blue', { list: ['red', 'green', 'blue'] }],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
  ['{&x,y,empty}', '&x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
];

describe('matching', () => {
  it.each(MATCHES)('%s matches %s', (template, uri, values) => {
    expect(parseUriTemplate(template).match(uri)).toEqual(values);
  });

  it('reads a resource template with a query the way a client fills it in', () => {
    const users = parseUriTemplate('users://{id}{?fields,sort}');
    expect(users.variables).toEqual(['id', 'fields', 'sort']);
    expect(users.match('users://42')).toEqual({ id: '42' });
    expect(users.match('users://42?sort=asc&fields=name,email')).toEqual({ id: '42', sort: 'asc', fields: 'name,email' });
    expect(users.match('users://42?color=red')).toBeUndefined(); // a parameter the template does not name
    expect(users.match('users://42?sort=a&sort=b')).toBeUndefined(); // one value, given twice
    expect(users.match('users://4%2')).toBeUndefined(); // a malformed escape
    expect(users.match('users://')).toBeUndefined(); // a simple variable needs a value
    expect(parseUriTemplate('files://{/path*}').match('files:///a/b%20c/d')).toEqual({ path: ['a', 'b c', 'd'] });
    expect(parseUriTemplate('codes://{code:3}').match('codes://abcd')).toBeUndefined(); // longer than its prefix
  });

  it('expands what it matches back to the same URI', () => {
    for (const [template, uri] of [
      ['users://{id}{?fields,sort}', 'users://u%201?fields=name&sort=asc'],
      ['files://{/path*}{?v}', 'files:///a/b/c?v=2'],
      ['notes://{owner}/{+path}{#section}', 'notes://ann/inbox/today#top'],
    ] as const) {
      expect(expandUriTemplate(template, parseUriTemplate(template).match(uri)!)).toBe(uri);
    }
  });

  it('refuses a template that is not RFC 6570, naming it', () => {
    expect(() => parseUriTemplate('users://{id')).toThrow(/Resource template "users:\/\/\{id" has an unmatched brace/);
    expect(() => parseUriTemplate('users://{i d}')).toThrow(/has a malformed variable "\{i d\}"/);
    expect(() => parseUriTemplate('users://{=id}')).toThrow(/the operator "=" is reserved by RFC 6570/);
    expect(() => parseUriTemplate('users://{id:0}')).toThrow(/malformed variable/);
  });
});
