/** Kubernetes metav1.LabelSelector, as MetalLB's resources and Services use it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/** Kubernetes semantics: every matchLabels entry and every expression must hold; an empty selector matches all. */
export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, req.key);
    const inValues = has && (req.values ?? []).includes(labels[req.key]!);
    const ok =
      req.operator === 'In'
        ? inValues
        : req.operator === 'NotIn'
          ? !inValues
          : req.operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

/** MetalLB's rule for lists of selectors: no selectors selects everything, otherwise any one must match. */
export function anySelectorMatches(
  selectors: readonly LabelSelector[],
  labels: Readonly<Record<string, string>>,
): boolean {
  return selectors.length === 0 || selectors.some((s) => selectorMatches(s, labels));
}
