import { materialCategoryNameSchema } from '@marquee/protocol';
import { Empty, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { SingleTextField } from '../../components/SingleTextField';
import { useCategories } from './api';
import { DeleteAction, SideAddButton } from './sideParts';
import '../../components/categoryList.css';

/**
 * The enterprise's material categories (spec section 3 'material category folder'): choosing
 * one filters the list (again: every category); create and delete (asked first).
 */
export function CategoryList({
  canManage,
  selected,
  onSelect,
}: {
  canManage: boolean;
  selected: string | undefined;
  onSelect: (id: string | undefined) => void;
}) {
  const { t } = useTranslation(['material', 'common']);
  const [adding, setAdding] = useState(false);
  const categories = useCategories();
  const remove = useCallMutation('materialCategoryDelete', {
    success: t('toast.categoryDeleted'),
    onSuccess: (_a, { id }) => selected === id && onSelect(undefined),
  });
  const create = useCallMutation('materialCategoryCreate');
  return (
    <div data-testid="category-panel">
      {canManage ? (
        <SideAddButton label={t('category.add')} onClick={() => setAdding(true)} testId="category-add" />
      ) : null}
      {categories.isLoading ? (
        <Spin className="mq-material-loading" />
      ) : (categories.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('category.empty')} />
      ) : (
        <ul className="mq-category-list mq-material-categories">
          {(categories.data ?? []).map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className={selected === c.id ? 'is-active' : undefined}
                aria-pressed={selected === c.id}
                onClick={() => onSelect(selected === c.id ? undefined : c.id)}
                data-testid={`category-${c.name}`}
              >
                {c.name}
              </button>
              {canManage ? (
                <DeleteAction
                  title={t('category.deleteConfirm', { name: c.name })}
                  onConfirm={() => remove.mutateAsync({ id: c.id })}
                  testId={`category-delete-${c.name}`}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <FormDialog<{ name: string }>
        open={adding}
        title={t('category.add')}
        onClose={() => setAdding(false)}
        submit={({ name }) => create.mutateAsync({ name: name.trim() })}
        success={t('toast.categoryCreated')}
        okText={t('action.save')}
        cancelText={t('action.cancel')}
        submitTestId="category-submit"
      >
        <SingleTextField label={t('category.name')} schema={materialCategoryNameSchema} testId="category-name" />
      </FormDialog>
    </div>
  );
}
