import { cx } from './cx';

/** Joins class names, skipping falsy ones; a later Tailwind class wins over an earlier one
 * of the same kind (cn('px-4', 'px-2') is 'px-2', cn('p-6 pt-0', 'pt-6') is 'p-6 pt-6'), so
 * callers can override a component's defaults through className.
 *
 * It does what tailwind-merge does for the utilities this project writes, in a few hundred
 * bytes rather than tailwind-merge's 27 KiB, which every island using a Button or a Card
 * loaded: tests/views/cn.test.mjs checks it against tailwind-merge on every pair of classes
 * found in views/, so a new kind of class that this table misses fails there. A class it
 * does not know never removes another (as with cx). */
export function cn(...parts: Array<string | false | null | undefined>): string {
  const classes = cx(...parts).split(/\s+/).filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = classes.length - 1; i >= 0; i--) {
    const c = classes[i];
    const k = parse(c);
    if (!k) {
      kept.push(c);
      continue;
    }
    if (taken.has(k.mods + k.group)) continue;
    taken.add(k.mods + k.group);
    for (const g of CONFLICTS[k.group] || []) taken.add(k.mods + g);
    kept.push(c);
  }
  return kept.reverse().join(' ');
}

// a group that overrides narrower ones: p-0 after px-4 drops px-4 (not the reverse)
const CONFLICTS: Record<string, string[]> = {
  p: ['px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl'],
  px: ['pr', 'pl'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml'],
  mx: ['mr', 'ml'],
  my: ['mt', 'mb'],
  size: ['w', 'h'],
  inset: ['inset-x', 'inset-y', 'start', 'end', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['right', 'left'],
  'inset-y': ['top', 'bottom'],
  gap: ['gap-x', 'gap-y'],
  overflow: ['overflow-x', 'overflow-y'],
  'font-size': ['leading'],
  'line-clamp': ['display', 'overflow'],
  rounded: ['rounded-s', 'rounded-e', 'rounded-t', 'rounded-r', 'rounded-b', 'rounded-l', 'rounded-ss', 'rounded-se', 'rounded-ee', 'rounded-es', 'rounded-tl', 'rounded-tr', 'rounded-br', 'rounded-bl'],
  'rounded-t': ['rounded-tl', 'rounded-tr'],
  'rounded-r': ['rounded-tr', 'rounded-br'],
  'rounded-b': ['rounded-br', 'rounded-bl'],
  'rounded-l': ['rounded-tl', 'rounded-bl'],
  'border-w': ['border-w-x', 'border-w-y', 'border-w-s', 'border-w-e', 'border-w-t', 'border-w-r', 'border-w-b', 'border-w-l'],
  'border-w-x': ['border-w-r', 'border-w-l'],
  'border-w-y': ['border-w-t', 'border-w-b'],
  'border-color': ['border-color-x', 'border-color-y', 'border-color-s', 'border-color-e', 'border-color-t', 'border-color-r', 'border-color-b', 'border-color-l'],
  'border-color-x': ['border-color-r', 'border-color-l'],
  'border-color-y': ['border-color-t', 'border-color-b'],
  touch: ['touch-x', 'touch-y', 'touch-pz'],
  'touch-x': ['touch'],
  'touch-y': ['touch'],
  'fvn-normal': ['fvn-ordinal', 'fvn-slashed-zero', 'fvn-figure', 'fvn-spacing', 'fvn-fraction'],
  'fvn-spacing': ['fvn-normal'],
  'fvn-figure': ['fvn-normal'],
  flex: ['basis', 'grow', 'shrink'],
  'rounded-s': ['rounded-ss', 'rounded-es'],
  'rounded-e': ['rounded-se', 'rounded-ee'],
};

const KEYWORDS: Record<string, string> = {};
const kw = (group: string, words: string) => words.split(' ').forEach((w) => (KEYWORDS[w] = group));
kw('display', 'block inline-block inline flex inline-flex table inline-table table-caption table-cell table-column table-column-group table-footer-group table-header-group table-row-group table-row flow-root grid inline-grid contents list-item hidden');
kw('position', 'static fixed absolute relative sticky');
kw('isolation', 'isolate isolation-auto');
kw('font-style', 'italic not-italic');
kw('text-transform', 'uppercase lowercase capitalize normal-case');
kw('text-decoration', 'underline overline line-through no-underline');
kw('text-overflow', 'truncate text-ellipsis text-clip');
kw('sr', 'sr-only not-sr-only');
kw('fvn-normal', 'normal-nums');
kw('fvn-figure', 'lining-nums oldstyle-nums');
kw('fvn-spacing', 'tabular-nums proportional-nums');
kw('divide-x', 'divide-x');
kw('divide-y', 'divide-y');
kw('visibility', 'visible invisible collapse');
kw('grow', 'grow grow-0');
kw('shrink', 'shrink shrink-0');
kw('flex-direction', 'flex-row flex-row-reverse flex-col flex-col-reverse');
kw('flex-wrap', 'flex-wrap flex-wrap-reverse flex-nowrap');
kw('transition', 'transition transition-all transition-colors transition-opacity transition-shadow transition-transform transition-none');
kw('text-alignment', 'text-left text-center text-right text-justify text-start text-end');
kw('text-wrap', 'text-wrap text-nowrap text-balance text-pretty');
kw('font-family', 'font-sans font-serif font-mono');
kw('border-style', 'border-solid border-dashed border-dotted border-double border-hidden border-none');
kw('border-collapse', 'border-collapse border-separate');
kw('table-layout', 'table-auto table-fixed');
kw('outline-style', 'outline-none outline-hidden outline-solid outline-dashed outline-dotted outline-double');
kw('shadow', 'shadow');
kw('ring-w', 'ring');
kw('outline-w', 'outline');
kw('ring-w-inset', 'ring-inset');
kw('border-w', 'border');
kw('break', 'break-normal break-words break-all break-keep');
kw('object-fit', 'object-contain object-cover object-fill object-none object-scale-down');
kw('bg-image', 'bg-none');
kw('bg-size', 'bg-auto bg-cover bg-contain');
kw('bg-attachment', 'bg-fixed bg-local bg-scroll');
kw('bg-repeat', 'bg-repeat bg-no-repeat bg-repeat-x bg-repeat-y bg-repeat-round bg-repeat-space');
kw('flex', 'flex-1 flex-auto flex-initial flex-none');
kw('col-start-end', 'col-auto');
kw('blur', 'blur');
kw('backdrop-blur', 'backdrop-blur');
kw('invert', 'invert');
kw('grayscale', 'grayscale');
kw('sepia', 'sepia');
kw('resize', 'resize');

const FONT_SIZE = /^(xs|sm|base|lg|xl|\d+xl)$/;
const SHADOW = /^(2xs|xs|sm|md|lg|xl|2xl|none|inner)$/;
const WEIGHT = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\d+)$/;
const NUMBER = /^\d+(\.\d+)?$/;
const LENGTH = /^\[\d*\.?\d+(px|rem|em|%|vh|vw|ch)\]$/;

// simple prefixes: <prefix>-<anything> belongs to the group of the same name
const PREFIXES = [
  'px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl', 'p', 'mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml', 'm',
  'size', 'min-w', 'min-h', 'max-w', 'max-h', 'w', 'h', 'inset-x', 'inset-y', 'inset', 'start', 'end', 'top', 'right', 'bottom', 'left',
  'gap-x', 'gap-y', 'gap', 'space-x', 'space-y', 'z', 'order', 'opacity', 'leading', 'tracking', 'duration', 'delay', 'ease', 'animate',
  'overflow-x', 'overflow-y', 'overflow', 'whitespace', 'select', 'cursor', 'pointer-events', 'items', 'self', 'justify-items', 'justify-self', 'justify',
  'content', 'place-content', 'place-items', 'place-self', 'basis', 'grid-cols', 'grid-rows', 'row-span', 'line-clamp',
  'blur', 'brightness', 'contrast', 'grayscale', 'invert', 'saturate', 'sepia', 'backdrop-blur', 'translate-x', 'translate-y', 'scale', 'rotate',
  'scroll-mt', 'scroll-mb', 'scroll-pt', 'underline-offset', 'ring-offset', 'outline-offset', 'aspect', 'align', 'list', 'resize', 'appearance', 'accent',
  'caret', 'will-change', 'transition', 'origin', 'object', 'rounded', 'divide-x', 'divide-y', 'touch', 'fill',
];

function group(u: string): string | undefined {
  if (KEYWORDS[u]) return KEYWORDS[u];
  // an arbitrary property, [mask-image:none]: its property
  if (u.startsWith('[') && u.includes(':')) return u.slice(1, u.indexOf(':'));
  const slash = u.lastIndexOf('/');
  const bare = slash > 0 && !u.slice(slash).includes(']') ? u.slice(0, slash) : u;
  const dash = (p: string) => (bare.startsWith(p + '-') ? bare.slice(p.length + 1) : undefined);
  let v: string | undefined;
  if ((v = dash('text')) !== undefined) return FONT_SIZE.test(v) || LENGTH.test(v) ? 'font-size' : 'text-color';
  if ((v = dash('font')) !== undefined) return WEIGHT.test(v) ? 'font-weight' : 'font-family';
  if ((v = dash('shadow')) !== undefined) return SHADOW.test(v) || /^\[.*(_|px)/.test(v) ? 'shadow' : 'shadow-color';
  if ((v = dash('ring-offset')) !== undefined) return NUMBER.test(v) || LENGTH.test(v) ? 'ring-offset-w' : 'ring-offset-color';
  if ((v = dash('ring')) !== undefined) return NUMBER.test(v) || LENGTH.test(v) ? 'ring-w' : 'ring-color';
  if ((v = dash('outline-offset')) !== undefined) return 'outline-offset';
  if ((v = dash('outline')) !== undefined) return NUMBER.test(v) || LENGTH.test(v) ? 'outline-w' : 'outline-color';
  if ((v = dash('stroke')) !== undefined) return NUMBER.test(v) ? 'stroke-w' : 'stroke';
  if ((v = dash('decoration')) !== undefined) return /^(solid|double|dotted|dashed|wavy)$/.test(v) ? 'text-decoration-style' : NUMBER.test(v) || /^(auto|from-font)$/.test(v) ? 'text-decoration-thickness' : 'text-decoration-color';
  if ((v = dash('divide')) !== undefined && !/^[xy]-/.test(v)) return 'divide-color';
  if ((v = dash('bg')) !== undefined) {
    if (/^(linear|radial|conic)(-|$)|^\[url/.test(v)) return 'bg-image';
    if (/^clip-/.test(v)) return 'bg-clip';
    if (/^(bottom|center|left|left-bottom|left-top|right|right-bottom|right-top|top)$/.test(v)) return 'bg-position';
    return 'bg-color';
  }
  for (const stop of ['from', 'via', 'to']) if ((v = dash(stop)) !== undefined) return /^\d+%$/.test(v) ? 'gradient-' + stop + '-pos' : 'gradient-' + stop;
  const side = bare.match(/^(border|rounded)-(x|y|s|e|t|r|b|l|ss|se|ee|es|tl|tr|br|bl)(-(.+))?$/);
  if (side) {
    if (side[1] === 'rounded') return 'rounded-' + side[2];
    return side[4] === undefined || NUMBER.test(side[4]) || LENGTH.test(side[4]) ? 'border-w-' + side[2] : 'border-color-' + side[2];
  }
  if ((v = dash('border')) !== undefined) return NUMBER.test(v) || LENGTH.test(v) ? 'border-w' : 'border-color';
  if (/^touch-pan-(x|left|right)$/.test(bare)) return 'touch-x';
  if (/^touch-pan-(y|up|down)$/.test(bare)) return 'touch-y';
  if (/^(object)-(bottom|center|left|left-bottom|left-top|right|right-bottom|right-top|top)$/.test(bare)) return 'object-position';
  if (bare === 'rounded') return 'rounded';
  if (bare.startsWith('col-span-')) return 'col-start-end';
  for (const p of PREFIXES) if (bare.startsWith(p + '-')) return p;
  return undefined;
}

// a class's variants (sorted, as order does not matter between them) and its group
const parsed = new Map<string, { mods: string; group: string } | undefined>();
function parse(c: string): { mods: string; group: string } | undefined {
  if (!parsed.has(c)) parsed.set(c, parseClass(c));
  return parsed.get(c);
}
function parseClass(c: string): { mods: string; group: string } | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < c.length; i++) {
    const ch = c[i];
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (ch === ':' && depth === 0) {
      parts.push(c.slice(start, i));
      start = i + 1;
    }
  }
  let base = c.slice(start);
  let important = '';
  if (base.startsWith('!') || base.endsWith('!')) {
    important = '!';
    base = base.startsWith('!') ? base.slice(1) : base.slice(0, -1);
  }
  if (base.startsWith('-')) base = base.slice(1);
  const g = group(base);
  if (!g) return undefined;
  // arbitrary variants ([&_svg]) keep their place; the others sort between them
  const mods: string[] = [];
  let run: string[] = [];
  for (const m of parts) {
    if (m.startsWith('[')) {
      mods.push(...run.sort(), m);
      run = [];
    } else run.push(m);
  }
  mods.push(...run.sort());
  return { mods: mods.join(':') + ':' + important, group: g };
}
