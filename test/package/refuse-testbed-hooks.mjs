// The hooks refuse-testbed.mjs registers (module customization hooks run in their own thread, from their own file).
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  if (found.url.includes('/src/testbed/')) throw new Error(`the product loaded the test bed: ${found.url}`);
  return found;
}
