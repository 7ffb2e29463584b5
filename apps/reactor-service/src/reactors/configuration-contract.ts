import { FieldErrors, type FormulaConfigurationElement } from '@coffer/contracts';

/**
 * A reactor's configuration against its formula's contract: every declared name present with the declared type
 * (string, boolean or number; no casts), nothing undeclared. Messages never contain the values (they are secrets).
 */
export function checkReactorConfiguration(configuration: Record<string, unknown>, contract: FormulaConfigurationElement[], errors: FieldErrors): void {
  const declared = new Map(contract.map((c) => [c.name, c]));
  for (const element of contract) {
    const path = `configuration.${element.name}`;
    if (
      !Object.prototype.hasOwnProperty.call(configuration, element.name) ||
      configuration[element.name] === null ||
      configuration[element.name] === undefined
    ) {
      errors.add(path, 'is required by the formula');
      continue;
    }
    const value = configuration[element.name];
    const ok = element.type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === element.type;
    if (!ok) errors.add(path, `must be a ${element.type}`);
  }
  for (const key of Object.keys(configuration)) {
    if (!declared.has(key)) errors.add(`configuration.${key}`, 'is not declared by the formula');
  }
}
