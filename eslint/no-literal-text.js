// ESLint rule `i18n/no-literal-text`: words a person reads are not written into the window's JSX; they come from the
// message catalogue (renderer/src/i18n, t()). Flags JSX text with a letter in it, a string or template literal with a
// letter as a JSX child, and such literals in the attributes people read or hear (title, aria-label, placeholder, alt,
// label, …). Symbols, punctuation and numbers alone ("…", "×", "·", "2") are not words and pass.
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'placeholder', 'alt', 'label', 'summary']);
const LETTER = /\p{L}/u;

function literalText(node) {
  if (node === null || node === undefined) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join('');
  if (node.type === 'ConditionalExpression') return literalText(node.consequent) ?? literalText(node.alternate);
  if (node.type === 'LogicalExpression') return literalText(node.right);
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noLiteralText = {
  meta: {
    type: 'problem',
    docs: { description: 'Text people read comes from the message catalogue (t()), not from JSX literals.' },
    messages: {
      text: 'Words on the screen come from the message catalogue: t("area.place.meaning") (renderer/src/i18n), not "{{text}}".',
    },
    schema: [],
  },
  create(context) {
    const report = (node, text) => context.report({ node, messageId: 'text', data: { text: text.trim().slice(0, 40) } });
    return {
      JSXText(node) {
        if (LETTER.test(node.value)) report(node, node.value);
      },
      JSXExpressionContainer(node) {
        if (node.parent?.type === 'JSXAttribute') return;
        const text = literalText(node.expression);
        if (text !== null && LETTER.test(text)) report(node, text);
      },
      JSXAttribute(node) {
        const name = node.name.type === 'JSXIdentifier' ? node.name.name : null;
        if (name === null || !READ_ATTRIBUTES.has(name)) return;
        const value = node.value?.type === 'JSXExpressionContainer' ? node.value.expression : node.value;
        const text = literalText(value);
        if (text !== null && LETTER.test(text)) report(node, text);
      },
    };
  },
};

export default { rules: { 'no-literal-text': noLiteralText } };
