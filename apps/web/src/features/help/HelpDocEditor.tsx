import { HELP_LANGUAGES, HELP_TITLE_MAX_CHARS, type HelpCategory, type HelpLanguage } from '@marquee/protocol';
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Space, Spin, Tabs, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { type DraftVersion, untitled, versionsToSave } from './helpLogic';
import { RichTextEditor } from './RichTextEditor';

type Drafts = Partial<Record<HelpLanguage, DraftVersion>>;

/**
 * The platform operator's editor of one help document (`id`, or a new one in `categoryId`):
 * its category, order and one tab per language (zh-CN required; en-US and ja optional, a
 * reader of those gets zh-CN where they are empty).
 */
export function HelpDocEditor({
  open,
  id,
  categories,
  categoryId,
  onClose,
  onSaved,
}: {
  open: boolean;
  id: string | null;
  categories: HelpCategory[];
  categoryId?: string;
  onClose: () => void;
  onSaved: (id: string) => void;
}) {
  const { t } = useTranslation(['help', 'common']);
  const info = useCallQuery('helpManageInfo', { id: id ?? '' }, { enabled: open && Boolean(id) });
  const save = useCallMutation('helpSave', { success: t('toast.saved') });
  const [drafts, setDrafts] = useState<Drafts>({});
  const [category, setCategory] = useState<string | undefined>(categoryId);
  const [sort, setSort] = useState(0);
  const [tab, setTab] = useState<HelpLanguage>('zh-CN');
  const [tried, setTried] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTab('zh-CN');
    setTried(false);
    if (!id) {
      setDrafts({ 'zh-CN': { title: '', body: '' } });
      setCategory(categoryId ?? categories[0]?.id);
      setSort(0);
    }
  }, [open, id, categoryId, categories]);

  useEffect(() => {
    if (!open || !id || !info.data) return;
    setDrafts(Object.fromEntries(info.data.versions.map((v) => [v.language, { title: v.title, body: v.body }])));
    setCategory(info.data.doc.categoryId);
    setSort(info.data.doc.sort);
  }, [open, id, info.data]);

  const missing = untitled(drafts);
  const set = (language: HelpLanguage, patch: Partial<DraftVersion>) =>
    setDrafts((d) => ({ ...d, [language]: { title: '', body: '', ...d[language], ...patch } }));

  const submit = async () => {
    setTried(true);
    if (!category || missing.length > 0) {
      if (missing[0]) setTab(missing[0]);
      return;
    }
    const answer = await save.mutateAsync({
      ...(id ? { id } : {}),
      categoryId: category,
      sort,
      versions: versionsToSave(drafts),
    });
    onSaved(answer.id);
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={860}
      title={id ? t('editor.titleEdit') : t('editor.titleNew')}
      destroyOnHidden
      data-testid="help-editor"
      extra={
        <Space>
          <Button onClick={onClose}>{t('common:action.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()} data-testid="help-editor-save">
            {t('editor.save')}
          </Button>
        </Space>
      }
    >
      {id && info.isLoading ? (
        <Spin />
      ) : (
        <Form layout="vertical">
          <Space size="large" wrap>
            <Form.Item
              label={t('field.category')}
              required
              validateStatus={tried && !category ? 'error' : undefined}
              help={tried && !category ? t('editor.categoryRequired') : undefined}
            >
              <Select
                style={{ width: 240 }}
                value={category}
                onChange={setCategory}
                options={categories.map((c) => ({ value: c.id, label: c.name }))}
                data-testid="help-editor-category"
              />
            </Form.Item>
            <Form.Item label={t('field.sort')} tooltip={t('field.sortHint')}>
              <InputNumber min={0} max={9999} precision={0} value={sort} onChange={(v) => setSort(v ?? 0)} />
            </Form.Item>
          </Space>
          <Alert type="info" showIcon title={t('editor.languagesHint')} style={{ marginBottom: 12 }} />
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as HelpLanguage)}
            items={HELP_LANGUAGES.map((language) => {
              const draft = drafts[language] ?? { title: '', body: '' };
              const bad = tried && missing.includes(language);
              return {
                key: language,
                label: (
                  <span data-testid={`help-editor-tab-${language}`}>
                    {t(`language.${language}`)}{' '}
                    {language === 'zh-CN' ? (
                      <Tag color="blue">{t('editor.required')}</Tag>
                    ) : draft.title ? null : (
                      <Tag>{t('editor.optional')}</Tag>
                    )}
                  </span>
                ),
                children: (
                  <>
                    <Form.Item
                      label={t('field.title')}
                      required={language === 'zh-CN'}
                      validateStatus={bad ? 'error' : undefined}
                      help={bad ? t('editor.titleRequired') : undefined}
                    >
                      <Input
                        value={draft.title}
                        maxLength={HELP_TITLE_MAX_CHARS}
                        showCount
                        onChange={(e) => set(language, { title: e.target.value })}
                        data-testid={`help-editor-title-${language}`}
                      />
                    </Form.Item>
                    <Form.Item label={t('field.body')}>
                      <RichTextEditor
                        value={draft.body}
                        onChange={(body) => set(language, { body })}
                        label={t('field.body')}
                        testId={`help-editor-body-${language}`}
                      />
                    </Form.Item>
                  </>
                ),
              };
            })}
          />
        </Form>
      )}
    </Drawer>
  );
}
