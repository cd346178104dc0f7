import { Globe, Heart, User } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_TABS, type TemplateTab } from '../template-api.ts';

const TAB_ICONS = { mine: User, public: Globe, favorites: Heart } as const;

/** The tabs: My Templates, Public, Favorites. */
export function ListTabs({ active, onChoose }: { active: TemplateTab; onChoose: (tab: TemplateTab) => void }) {
  const { t } = useTranslation('templates');
  return (
    <div role="tablist" aria-label={t('list.tabsLabel')} className="flex gap-1 overflow-x-auto">
      {TEMPLATE_TABS.map((tab) => {
        const Icon = TAB_ICONS[tab];
        const selected = active === tab;
        return (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls="template-results"
            onClick={() => onChoose(tab)}
            className={`inline-flex shrink-0 items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium ${
              selected ? 'bg-accent-50 text-accent-800' : 'text-zinc-700 hover:bg-zinc-100'
            }`}
            data-testid={`tab-${tab}`}
          >
            <Icon className="size-4" aria-hidden />
            {t(`tabs.${tab}`)}
          </button>
        );
      })}
    </div>
  );
}
