// The badge categories: the one list the pages use. The server's list (app/model
// Categories) must equal it; app/model's TestCategoriesMatchViews checks that.
export const CATEGORIES = ['Development', 'Design', 'Management', 'Data Science', 'Marketing', 'DevOps'] as const;

export type Category = (typeof CATEGORIES)[number];
