import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorField, Field, NumberField, SelectField, SwitchField, TextField } from './fields';

/**
 * A labelled row bound to one key of an edited object (a component's props, its box, the page):
 * it shows `of[name]` and commits `{ [name]: value }` through `set`. The label is `props.<name>`
 * unless one is given.
 */
interface Bound<K extends string, V> {
  of: Record<NoInfer<K>, NoInfer<V>>;
  name: K;
  set: (patch: Record<NoInfer<K>, NoInfer<V>>) => void;
  label?: ReactNode;
}

type Rest<F extends (props: never) => ReactNode> = Omit<Parameters<F>[0], 'value' | 'onCommit'>;

function Row({ name, label, children }: { name: string; label?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('layoutEditor');
  return <Field label={label ?? t(`props.${name}`)}>{children}</Field>;
}

const patch = <K extends string, V>(name: K, value: V) => ({ [name]: value }) as Record<K, V>;

/** A control of the panel: it shows `value` and reports a finished edit through `onCommit`. */
type Control<V, F> = (props: F & { value: V; onCommit: (value: V) => void }) => ReactNode;

/** The row of a control, bound to `of[name]`. */
function boundRow<V, F extends object>(Control: Control<V, F>) {
  return function BoundRow<K extends string>({ of, name, set, label, ...field }: Bound<K, V> & F) {
    return (
      <Row name={name} label={label}>
        <Control {...(field as unknown as F)} value={of[name]} onCommit={(v: V) => set(patch(name, v))} />
      </Row>
    );
  };
}

/** A number that is never empty: an emptied field keeps the old value. */
function FilledNumberField({
  onCommit,
  ...field
}: Rest<typeof NumberField> & { value: number; onCommit: (value: number) => void }) {
  return <NumberField {...field} onCommit={(v) => v !== null && onCommit(v)} />;
}

export const NumberRow = boundRow<number, Rest<typeof NumberField>>(FilledNumberField);
export const TextRow = boundRow<string, Rest<typeof TextField>>(TextField);
export const ColorRow = boundRow<string, Rest<typeof ColorField>>(ColorField);
export const SwitchRow = boundRow<boolean, Rest<typeof SwitchField>>(SwitchField);

/** One of `options`. */
export function SelectRow<K extends string, T extends string>({
  of,
  name,
  set,
  label,
  options,
  testId,
}: Bound<K, T> & { options: { value: T; label: ReactNode }[]; testId?: string }) {
  return (
    <Row name={name} label={label}>
      <SelectField value={of[name]} options={options} onCommit={(v) => set(patch(name, v))} testId={testId} />
    </Row>
  );
}

/** One of `values`, each labelled by the namespace key `<labels>.<value>`. */
export function ChoiceRow<K extends string, T extends string>({
  values,
  labels,
  ...row
}: Bound<K, T> & { values: readonly T[]; labels: string; testId?: string }) {
  const { t } = useTranslation('layoutEditor');
  return <SelectRow {...row} options={values.map((v) => ({ value: v, label: t(`${labels}.${v}`) }))} />;
}
