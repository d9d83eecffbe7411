'use strict';
// Nest 12 ships ESM only. Jest on Node 20 cannot require() ESM, so Jest transpiles those
// packages to CommonJS, where `import.meta` is a syntax error. Nest only reads
// `import.meta.url` (to build a `createRequire`), so it is rewritten to the CommonJS equivalent.
module.exports = function importMetaUrlToCommonJs({ types: t }) {
  return {
    name: 'import-meta-url-to-commonjs',
    visitor: {
      MemberExpression(path) {
        const { object, property } = path.node;
        if (!t.isMetaProperty(object) || object.meta.name !== 'import' || !t.isIdentifier(property, { name: 'url' })) return;
        path.replaceWithSourceString("require('url').pathToFileURL(__filename).href");
      },
    },
  };
};
