/**
 * The kinds of setting (int, number, enum, bool) and small builders for them. Shared settings are
 * declared in settings.ts; each algorithm declares its own in its descriptor (config/algorithms/).
 */

export interface SettingBase {
  /** Short label for the UI. */
  label: string;
  /** One line on what it does. */
  help: string;
  /** Settings in the same group are shown together. */
  group: string;
  /** The algorithms this setting matters to (all when absent); the UI hides it for the others. Derived from `scope`. */
  appliesTo?: readonly string[];
  /** Which algorithms a shared setting matters to, by their loop or family (all when absent). */
  scope?: SettingScope;
  /** Can change while a run trains (applied at the next update; see src/config/liveSettings.ts). */
  live?: boolean;
}

/** Loop kinds and families a shared setting applies to; an algorithm matches if either list names it. */
export interface SettingScope {
  loops?: readonly string[];
  families?: readonly string[];
}

export interface IntSetting extends SettingBase {
  kind: 'int';
  min: number;
  max: number;
  default: number;
}

export interface NumberSetting extends SettingBase {
  kind: 'number';
  min: number;
  max: number;
  default: number;
  /** Draw the UI slider on a log scale. */
  log?: boolean;
}

export interface EnumSetting<T extends string = string> extends SettingBase {
  kind: 'enum';
  options: readonly T[];
  default: T;
}

export interface BoolSetting extends SettingBase {
  kind: 'bool';
  default: boolean;
}

export type Setting = IntSetting | NumberSetting | EnumSetting | BoolSetting;

export const int = (group: SettingBase['group'], label: string, min: number, max: number, def: number, help: string): IntSetting => ({
  kind: 'int', group, label, min, max, default: def, help,
});
export const num = (group: SettingBase['group'], label: string, min: number, max: number, def: number, help: string, log = false): NumberSetting => ({
  kind: 'number', group, label, min, max, default: def, help, log,
});
export const flag = (group: SettingBase['group'], label: string, def: boolean, help: string): BoolSetting => ({
  kind: 'bool', group, label, default: def, help,
});
export const choice = <T extends string>(group: SettingBase['group'], label: string, options: readonly T[], def: T, help: string): EnumSetting<T> => ({
  kind: 'enum', group, label, options, default: def, help,
});

/** The same setting, marked as one that can change while a run trains. */
export function live<S extends Setting>(setting: S): S {
  return { ...setting, live: true };
}

/** The same setting, marked as mattering only to the algorithms whose loop or family the scope names. */
export function scoped<S extends Setting>(scope: SettingScope, setting: S): S {
  return { ...setting, scope };
}

export type SettingValue<S> = S extends EnumSetting<infer T> ? T : S extends BoolSetting ? boolean : number;
