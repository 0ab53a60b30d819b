// @ts-check
/**
 * A TypeDoc plugin: types written with a conditional type alias, such as `Immutable<GameState>`,
 * are documented as written (a link to the alias, with its arguments) instead of expanded.
 *
 * Why it is needed: TypeDoc documents a parameter, return or property by the type the checker
 * gives it, as an editor's hover does. For a conditional alias applied to a concrete type, the
 * checker resolves the condition at once and the result no longer remembers the alias, so
 * `legalMoves(rules, state: Immutable<GameView>)` was documented with every field of the state,
 * read-only, in sixty lines. No TypeDoc option changes that (`@inline`/`@expand` and their
 * opposites act on references the checker still has). So, for each such declaration, this plugin
 * converts its written type node instead, which TypeDoc does already for type alias bodies.
 *
 * Only declarations whose written type mentions a conditional alias with type arguments are
 * touched; everything else is documented exactly as TypeDoc would.
 */
import { Converter, ReflectionKind } from 'typedoc';
import ts from 'typescript';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_SIGNATURE, (context, signature, declaration) => {
    const inSignature = context.withScope(signature);
    for (const parameter of signature.parameters ?? []) {
      const node = writtenType(context.getSymbolFromReflection(parameter)?.valueDeclaration);
      if (node && mentionsConditionalAlias(context.checker, node)) {
        parameter.type = context.converter.convertType(inSignature.withScope(parameter), node);
      }
    }
    const returned = writtenType(declaration);
    if (returned && mentionsConditionalAlias(context.checker, returned)) {
      signature.type = context.converter.convertType(inSignature, returned);
    }
  });
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Property | ReflectionKind.Variable)) return;
    const node = writtenType(context.getSymbolFromReflection(reflection)?.valueDeclaration);
    if (node && mentionsConditionalAlias(context.checker, node)) {
      reflection.type = context.converter.convertType(context.withScope(reflection), node);
    }
  });
}

/**
 * The type node written on a parameter, property, variable or function-like declaration, if any.
 * @param {ts.Node | undefined} declaration
 * @returns {ts.TypeNode | undefined}
 */
function writtenType(declaration) {
  if (!declaration) return undefined;
  if (
    ts.isParameter(declaration) ||
    ts.isPropertySignature(declaration) ||
    ts.isPropertyDeclaration(declaration) ||
    ts.isVariableDeclaration(declaration) ||
    ts.isFunctionLike(declaration)
  ) {
    const type = declaration.type;
    return type && ts.isTypeNode(type) && type.kind !== ts.SyntaxKind.ThisType && !ts.isTypePredicateNode(type) ? type : undefined;
  }
  return undefined;
}

/**
 * Whether `node` contains a reference with type arguments to a type alias declared as a
 * conditional type (`Immutable<T> = T extends ... ? ... : ...`).
 * @param {ts.TypeChecker} checker
 * @param {ts.TypeNode} node
 */
function mentionsConditionalAlias(checker, node) {
  let found = false;
  /** @param {ts.Node} n */
  const visit = (n) => {
    if (found) return;
    if (ts.isTypeReferenceNode(n) && n.typeArguments?.length) {
      let symbol = checker.getSymbolAtLocation(n.typeName);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const alias = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
      if (alias && ts.isConditionalTypeNode(alias.type)) {
        found = true;
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}
