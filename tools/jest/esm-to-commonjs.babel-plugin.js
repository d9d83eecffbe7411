'use strict';
// Jest on Node 20 cannot require() ESM, nor run a dynamic import() without
// --experimental-vm-modules. Nest 12 ships ESM only and PGlite's CommonJS build loads Node's
// built-ins with import(), so Jest transpiles those files to CommonJS first. Two constructs
// survive @babel/plugin-transform-modules-commonjs and are rewritten here:
// - `import.meta.url` (Nest builds a createRequire from it) becomes the file's URL;
// - `import(x)` becomes a promise of `module.require(x)`. Both use `module.require`, never a bare
//   `require`: PGlite and Swagger UI declare a local variable of that name (PGlite's
//   `var require`, Swagger's `const require = createRequire(import.meta.url)`).
module.exports = function esmToCommonJs({ types: t, template }) {
  const requireLater = template.expression('Promise.resolve().then(() => module.require(SPECIFIER))');
  return {
    name: 'esm-to-commonjs-for-jest',
    visitor: {
      MemberExpression(path) {
        const { object, property } = path.node;
        if (
          !t.isMetaProperty(object) ||
          object.meta.name !== 'import' ||
          !t.isIdentifier(property, { name: 'url' })
        )
          return;
        path.replaceWithSourceString("module.require('url').pathToFileURL(__filename).href");
      },
      CallExpression(path) {
        if (!t.isImport(path.node.callee) || path.node.arguments.length !== 1) return;
        path.replaceWith(requireLater({ SPECIFIER: path.node.arguments[0] }));
      },
    },
  };
};
