// A module resolve hook (registered by ./register.ts): every `import ... from 'uvu'` gets
// ./visible-hooks.ts instead, which is uvu with a `before` hook's error printed.
const WRAPPER = new URL('./visible-hooks.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'uvu' && context.parentURL !== WRAPPER) return next(WRAPPER, context);
  return next(specifier, context);
}
