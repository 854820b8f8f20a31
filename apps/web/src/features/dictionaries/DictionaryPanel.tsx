import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DICTIONARY_KINDS,
  DICTIONARY_LABEL_MAX,
  DICTIONARY_LANGUAGES,
  type DictionaryEntry,
  type DictionaryKind,
  dictionaryCodeSchemaOf,
} from '@marquee/protocol';
import { Alert, Button, Form, Input, Popconfirm, Segmented, Space, Switch, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule, zodRule } from '../../components/zodRule';

interface EntryValues {
  code: string;
  labels: Record<(typeof DICTIONARY_LANGUAGES)[number], string>;
}

/** Adds an entry (its code, then fixed) or relabels one, in the three languages. */
function EntryDialog({
  kind,
  open,
  entry,
  onClose,
}: {
  kind: DictionaryKind;
  open: boolean;
  entry: DictionaryEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['dictionaries', 'validation']);
  const required = requiredRule(t);
  return (
    <FormDialog<EntryValues>
      open={open}
      title={entry ? t('dialog.editTitle') : t('dialog.addTitle')}
      onClose={onClose}
      submit={async (v) => {
        await call('dictionarySave', {
          ...(entry ? { id: entry.id } : { code: v.code.trim() }),
          kind,
          labels: {
            'zh-CN': v.labels['zh-CN'].trim(),
            'en-US': v.labels['en-US'].trim(),
            ja: v.labels.ja.trim(),
          },
        });
      }}
      success={t('toast.saved')}
      invalidates={['dictionaries']}
      values={
        entry ? { code: entry.code, labels: entry.labels } : { code: '', labels: { 'zh-CN': '', 'en-US': '', ja: '' } }
      }
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="dictionary-submit"
      testId="dictionary-dialog"
    >
      <Form.Item
        name="code"
        label={t('field.code')}
        tooltip={kind === 'screenSize' ? t('field.screenSizeCodeHint') : t('field.codeHint')}
        rules={entry ? [] : [required, zodRule(dictionaryCodeSchemaOf(kind), t)]}
      >
        <Input
          maxLength={48}
          disabled={entry !== null}
          inputMode={kind === 'screenSize' ? 'decimal' : undefined}
          data-testid="dictionary-code"
        />
      </Form.Item>
      {DICTIONARY_LANGUAGES.map((language) => (
        <Form.Item
          key={language}
          name={['labels', language]}
          label={t(`field.label.${language}`)}
          rules={[required, maxLengthRule(t, DICTIONARY_LABEL_MAX)]}
        >
          <Input maxLength={DICTIONARY_LABEL_MAX} data-testid={`dictionary-label-${language}`} />
        </Form.Item>
      ))}
    </FormDialog>
  );
}

/**
 * The platform operator's dictionaries (issue 31; a tab of /user/company): the lists pickers
 * offer. Per kind, the entries in their order with their labels in the three languages and how
 * many records hold each; the operator adds (not to a fixed kind), relabels, moves up and down,
 * enables or disables, and deletes an entry no record holds (a used one is disabled instead).
 */
export default function DictionaryPanel() {
  const { t } = useTranslation('dictionaries');
  const [kind, setKind] = useState<DictionaryKind>('deviceType');
  const [editing, setEditing] = useState<DictionaryEntry | null>(null);
  const [adding, setAdding] = useState(false);
  const list = useCallQuery('dictionaryManageList', { kind }, { keepPrevious: true });
  const entries = list.data?.data ?? [];
  const fixed = list.data?.fixed ?? false;
  const reorder = useCallMutation('dictionaryReorder', { success: t('toast.reordered') });
  const setEnabled = useCallMutation('dictionarySetEnabled', { success: t('toast.saved') });
  const remove = useCallMutation('dictionaryDelete', { success: t('toast.deleted') });

  const move = (index: number, by: -1 | 1) => {
    const ids = entries.map((e) => e.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    reorder.mutate({ kind, ids });
  };

  return (
    <div className="mq-dictionaries" data-testid="dictionary-panel">
      <Space style={{ marginBottom: 12, justifyContent: 'space-between', width: '100%' }} wrap>
        <Segmented
          value={kind}
          onChange={(v) => setKind(v as DictionaryKind)}
          options={DICTIONARY_KINDS.map((k) => ({
            value: k,
            label: <span data-testid={`dictionary-kind-${k}`}>{t(`kind.${k}`)}</span>,
          }))}
        />
        {fixed ? null : (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="dictionary-add">
            {t('action.add')}
          </Button>
        )}
      </Space>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={fixed ? t('hint.fixed') : t('hint.editable')}
        data-testid="dictionary-hint"
      />
      <Table<DictionaryEntry>
        rowKey="id"
        size="small"
        loading={list.isFetching || reorder.isPending}
        dataSource={entries}
        pagination={false}
        data-testid="dictionary-table"
        onRow={(row) => ({ 'data-testid': `dictionary-row-${row.code}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            key: 'order',
            title: t('field.order'),
            width: 90,
            render: (_v, _row, index) => (
              <Space size={2}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0 || reorder.isPending}
                  onClick={() => move(index, -1)}
                  aria-label={t('action.up')}
                  data-testid={`dictionary-up-${index}`}
                />
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  disabled={index === entries.length - 1 || reorder.isPending}
                  onClick={() => move(index, 1)}
                  aria-label={t('action.down')}
                  data-testid={`dictionary-down-${index}`}
                />
              </Space>
            ),
          },
          {
            key: 'code',
            dataIndex: 'code',
            title: t('field.code'),
            width: 220,
            render: (v: string) => <code>{v}</code>,
          },
          ...DICTIONARY_LANGUAGES.map((language) => ({
            key: language,
            title: t(`field.label.${language}`),
            ellipsis: true,
            render: (_v: unknown, row: DictionaryEntry) => row.labels[language],
          })),
          {
            key: 'usage',
            dataIndex: 'usage',
            title: t('field.usage'),
            width: 90,
            align: 'right' as const,
          },
          {
            key: 'enabled',
            title: t('field.enabled'),
            width: 90,
            render: (_v, row) => (
              <Switch
                size="small"
                checked={row.enabled}
                loading={setEnabled.isPending && setEnabled.variables?.id === row.id}
                onChange={(enabled) => setEnabled.mutate({ id: row.id, enabled })}
                data-testid={`dictionary-enabled-${row.code}`}
              />
            ),
          },
          {
            key: 'actions',
            title: t('field.actions'),
            width: 150,
            render: (_v, row) => (
              <Space size={4}>
                <Button
                  size="small"
                  type="link"
                  onClick={() => setEditing(row)}
                  data-testid={`dictionary-edit-${row.code}`}
                >
                  {t('action.edit')}
                </Button>
                {fixed ? null : row.usage > 0 ? (
                  <Tooltip title={t('hint.inUse', { count: row.usage })}>
                    <Tag data-testid={`dictionary-inuse-${row.code}`}>{t('inUse')}</Tag>
                  </Tooltip>
                ) : (
                  <Popconfirm
                    title={t('confirm.delete', { code: row.code })}
                    onConfirm={() => remove.mutateAsync({ id: row.id })}
                    okText={t('action.delete')}
                    cancelText={t('dialog.cancel')}
                  >
                    <Button size="small" type="link" danger data-testid={`dictionary-delete-${row.code}`}>
                      {t('action.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <EntryDialog
        kind={kind}
        open={adding || editing !== null}
        entry={editing}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
      />
    </div>
  );
}
