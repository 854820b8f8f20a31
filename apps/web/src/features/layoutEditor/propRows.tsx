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

/** A number (an emptied field keeps the old value). */
export function NumberRow<K extends string>({
  of,
  name,
  set,
  label,
  ...field
}: Bound<K, number> & Rest<typeof NumberField>) {
  return (
    <Row name={name} label={label}>
      <NumberField value={of[name]} onCommit={(v) => v !== null && set(patch(name, v))} {...field} />
    </Row>
  );
}

export function TextRow<K extends string>({
  of,
  name,
  set,
  label,
  ...field
}: Bound<K, string> & Rest<typeof TextField>) {
  return (
    <Row name={name} label={label}>
      <TextField value={of[name]} onCommit={(v) => set(patch(name, v))} {...field} />
    </Row>
  );
}

export function ColorRow<K extends string>({
  of,
  name,
  set,
  label,
  ...field
}: Bound<K, string> & Rest<typeof ColorField>) {
  return (
    <Row name={name} label={label}>
      <ColorField value={of[name]} onCommit={(v) => set(patch(name, v))} {...field} />
    </Row>
  );
}

export function SwitchRow<K extends string>({
  of,
  name,
  set,
  label,
  ...field
}: Bound<K, boolean> & Rest<typeof SwitchField>) {
  return (
    <Row name={name} label={label}>
      <SwitchField value={of[name]} onCommit={(v) => set(patch(name, v))} {...field} />
    </Row>
  );
}

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
