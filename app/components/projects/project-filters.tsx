import { Search, X } from "lucide-react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { route } from "~/lib/routes";
import { SortTabs, type ProjectSort } from "./sort-tabs";

/** Search box and category filter (a GET form, so the URL holds the filters), and the sort tabs. */
export function ProjectFilters({
  q,
  category,
  sort,
  categories,
}: {
  q: string;
  category: string;
  sort: ProjectSort;
  categories: { slug: string; name: string }[];
}) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.formMethod?.toUpperCase() === "GET";
  const filtered = q !== "" || category !== "";
  return (
    <div className="mb-6 grid gap-3">
      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row" key={`${q}|${category}`}>
        <input type="hidden" name="sort" value={sort} />
        <label htmlFor="q" className="sr-only">
          Search projects
        </label>
        <Input id="q" name="q" type="search" defaultValue={q} placeholder="Search projects" maxLength={100} className="sm:flex-1" />
        <label htmlFor="category" className="sr-only">
          Category
        </label>
        <Select id="category" name="category" defaultValue={category} className="sm:w-52" onChange={(event) => submit(event.currentTarget.form)}>
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.name}
            </option>
          ))}
        </Select>
        <Button type="submit" variant="secondary" pending={searching}>
          <Search aria-hidden /> Search
        </Button>
      </Form>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SortTabs current={sort} />
        {filtered && (
          <Button asChild variant="ghost" size="sm">
            <Link to={sort === "trending" ? route("projects.index") : route("projects.index", { sort })}>
              <X aria-hidden /> Clear filters
            </Link>
          </Button>
        )}
      </div>
    </div>
  );
}
