import { ColorPicker, Input, InputNumber, Select, Switch } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** One labelled row of the properties panel. */
export function Field({ label, children, error }: { label: ReactNode; children: ReactNode; error?: string | null }) {
  return (
    <label className="mq-le-field">
      <span className="mq-le-field-label">{label}</span>
      <span className="mq-le-field-control">{children}</span>
      {error ? <span className="mq-le-field-error">{error}</span> : null}
    </label>
  );
}

/**
 * A text field that commits on Enter or when it loses focus (one undo step per edit, not per
 * key). `validate` returns an error key of the namespace, or null; an invalid value is not committed.
 */
export function TextField({
  value,
  onCommit,
  multiline,
  maxLength,
  placeholder,
  validate,
  testId,
}: {
  value: string;
  onCommit: (value: string) => void;
  multiline?: boolean;
  maxLength?: number;
  placeholder?: string;
  validate?: (value: string) => string | null;
  testId?: string;
}) {
  const { t } = useTranslation('layoutEditor');
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const error = validate ? validate(draft) : null;
  const commit = () => {
    if (draft !== value && !error) onCommit(draft);
  };
  const common = {
    value: draft,
    maxLength,
    placeholder,
    status: error ? ('error' as const) : undefined,
    'data-testid': testId,
    onChange: (e: { target: { value: string } }) => setDraft(e.target.value),
    onBlur: commit,
  };
  return (
    <>
      {multiline ? (
        <Input.TextArea {...common} autoSize={{ minRows: 2, maxRows: 8 }} />
      ) : (
        <Input {...common} onPressEnter={commit} />
      )}
      {error ? <span className="mq-le-field-error">{t(error)}</span> : null}
    </>
  );
}

/** A number field that commits on Enter, blur or a step; out-of-range values are clamped by the field. */
export function NumberField({
  value,
  onCommit,
  min,
  max,
  step,
  precision,
  allowEmpty,
  suffix,
  testId,
}: {
  value: number | null;
  onCommit: (value: number | null) => void;
  min?: number;
  max?: number;
  step?: number;
  precision?: number;
  /** Empty means null (e.g. "until the page ends"). */
  allowEmpty?: boolean;
  suffix?: string;
  testId?: string;
}) {
  const [draft, setDraft] = useState<number | null>(value);
  useEffect(() => setDraft(value), [value]);
  const commit = (next: number | null) => {
    if (next === null && !allowEmpty) {
      setDraft(value);
      return;
    }
    if (next !== value) onCommit(next);
  };
  return (
    <InputNumber
      value={draft}
      min={min}
      max={max}
      step={step}
      precision={precision}
      suffix={suffix}
      style={{ width: '100%' }}
      data-testid={testId}
      onChange={(v) => setDraft(typeof v === 'number' ? v : null)}
      onBlur={() => commit(draft)}
      onPressEnter={() => commit(draft)}
      onStep={(v) => commit(typeof v === 'number' ? v : null)}
    />
  );
}

/** A colour (#rrggbb or #rrggbbaa); `allowTransparent` adds the clear button (transparent). */
export function ColorField({
  value,
  onCommit,
  allowTransparent,
  testId,
}: {
  value: string;
  onCommit: (value: string) => void;
  allowTransparent?: boolean;
  testId?: string;
}) {
  return (
    <ColorPicker
      value={value === 'transparent' ? undefined : value}
      allowClear={allowTransparent}
      showText
      size="small"
      data-testid={testId}
      onChangeComplete={(color) => {
        const hex = color.toHexString();
        if (hex !== value) onCommit(hex);
      }}
      onClear={() => onCommit('transparent')}
    />
  );
}

export function SelectField<T extends string>({
  value,
  options,
  onCommit,
  testId,
}: {
  value: T;
  options: { value: T; label: ReactNode }[];
  onCommit: (value: T) => void;
  testId?: string;
}) {
  return (
    <Select<T>
      value={value}
      options={options}
      onChange={(v) => v !== value && onCommit(v)}
      style={{ width: '100%' }}
      size="small"
      data-testid={testId}
    />
  );
}

export function SwitchField({
  value,
  onCommit,
  testId,
}: {
  value: boolean;
  onCommit: (value: boolean) => void;
  testId?: string;
}) {
  return <Switch size="small" checked={value} onChange={(v) => onCommit(v)} data-testid={testId} />;
}
