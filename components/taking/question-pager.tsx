import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

/** Previous and Next under a question; the last one leads to the review, which any other offers beside Next. */
export function QuestionPager({ index, total, onQuestion, onReview }: { index: number; total: number; onQuestion: (index: number) => void; onReview: () => void }) {
  const t = useTranslations("taking.pager");
  return (
    <div className="flex flex-wrap justify-between gap-2">
      <Button type="button" variant="secondary" className="min-h-11" disabled={index === 0} onClick={() => onQuestion(index - 1)}>
        <span aria-hidden="true">←</span> {t("previous")}
      </Button>
      {index < total - 1 ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="ghost" className="min-h-11" onClick={onReview}>
            {t("review")}
          </Button>
          <Button type="button" className="min-h-11" onClick={() => onQuestion(index + 1)}>
            {t("next")} <span aria-hidden="true">→</span>
          </Button>
        </div>
      ) : (
        <Button type="button" className="min-h-11" onClick={onReview}>
          {t("review")} <span aria-hidden="true">→</span>
        </Button>
      )}
    </div>
  );
}
