import { RenderHeads } from '@render/contracts/route-heads';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../lib/call-route.ts';

/** The code renderer's languages and themes (`RenderHeads.codeLanguages`), vs2015 first among themes. */
export function useCodeCatalog(enabled: boolean) {
  return useQuery({
    queryKey: ['code-catalog'],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const { data } = await callRoute(RenderHeads.codeLanguages, {}, { anonymous: true });
      return { languages: data.languages, themes: ['vs2015', ...data.themes.filter((theme) => theme !== 'vs2015')] };
    },
  });
}
