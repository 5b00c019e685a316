"""Static-site Markdown read as its readers see it, one test per site generator, each written from
a real public page of that generator's style (small excerpts; the source is named above each):
front matter gives the title and is never text, template tags and components are dropped keeping
the words they show, admonitions are their text, code stays code, and plain Markdown is untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragtui.core.knowledge.chunking import passages_of
from ragtui.core.knowledge.formats import markdown
from ragtui.core.knowledge.front_matter import front_matter
from ragtui.core.types.knowledge import Document

from .test_formats import spans_hold

ROOT = Path(__file__).resolve().parents[2]
# What a reader never sees: front matter keys, fences of front matter, template tags, anchors,
# attribute lists, admonition and alert markers, MDX imports, component tags.
SYNTAX = re.compile(
    r"^(?:---|\+\+\+)$|^(?:title|weight|description|menu|permalink|id|slug)\s*[:=]|\{\{|\{%|\{#|\{:|"
    r"\{ *[.#]|^!!!|^\?\?\?|^===|^:::|\[!(?:NOTE|TIP|IMPORTANT|WARNING)\]|^import |^export |</?[A-Z]\w*[ />]|<!--",
    re.M,
)


def read(text: str, name: str = "page.md") -> Document:
    document = markdown.load(text.encode("utf-8"), name)
    spans_hold(document)
    return document


def texts(document: Document) -> list[str]:
    return [p.text for p in passages_of(document)]


def no_syntax(document: Document) -> None:
    """No passage shows a reader syntax outside code spans (code is kept as written)."""
    for passage in passages_of(document):
        prose = re.sub(r"`[^`\n]*`", "", passage.text)
        assert not SYNTAX.search(prose), passage.text


# Hugo — mastodon/documentation, content/en/user/moving.md (the page issue 52 found read raw),
# and docker/docs, content/manuals/billing/payment-method.md (tabs, include, alerts).
HUGO_MOVING = """---
title: Moving or leaving accounts
description: Take your information and do what you want with it.
menu:
  docs:
    weight: 100
    parent: user
---

## Exporting your information {#export}

{{< figure src="/assets/export.jpg" caption="The data export page in settings" >}}

Requesting an archive of your posts and media can be done once every 7 days, and can be downloaded in ActivityPub JSON format.

### Profile redirect {#redirect}

{{< page-ref page="user/network" >}}

Redirecting your account disables posting from that account and displays a "profile moved" notice indicating your new account.
"""

HUGO_PAYMENT = """---
title: Add or update a payment method
weight: 20
---

All currency, for example the amount listed on your billing invoice, is in United States dollar (USD).

{{% include "tax-compliance.md" %}}

## Manage payment method

{{< tabs >}}
{{< tab name="Docker subscription" >}}

1. Select **Payment methods** from the left-hand menu.

> [!NOTE]
>
> If you want to set a US bank account as your default payment method, you must
> verify the account first.

{{< /tab >}}
{{< /tabs >}}
"""


def test_hugo_front_matter_titles_the_page_and_shortcodes_keep_only_what_they_show():
    document = read(HUGO_MOVING, "user/moving.md")
    assert document.title == "Moving or leaving accounts"
    assert [p.heading for p in passages_of(document)] == [
        ("Moving or leaving accounts", "Exporting your information"),
        ("Moving or leaving accounts", "Exporting your information", "Profile redirect"),
    ]
    first, second = texts(document)
    assert first.startswith("The data export page in settings\n\nRequesting an archive")  # the caption
    assert "Take your information" not in document.text  # the description is not the page's text
    assert second.startswith("Redirecting your account disables posting")  # page-ref shows no words
    no_syntax(document)


def test_hugo_tabs_keep_their_names_and_alerts_lose_their_markers():
    document = read(HUGO_PAYMENT, "billing/payment-method.md")
    assert document.title == "Add or update a payment method"
    tab = texts(document)[1]
    assert tab.startswith("Docker subscription\n\n1. Select **Payment methods**")
    assert "> If you want to set a US bank account as your default payment method" in tab
    no_syntax(document)


def test_toml_front_matter_gives_the_title_too():
    # Hugo's TOML front matter, as in SaberD/hugo-theme-stack, exampleSite/content/post/markdown-extensions/index.md
    page = '+++\nauthor = "Hugo Authors"\ntitle = "Markdown Extensions and Shortcodes"\ntags = [\n    "markdown",\n]\n+++\n\nThis article showcases Hugo\'s Markdown extensions.\n<!--more-->\n'
    document = read(page)
    assert document.title == "Markdown Extensions and Shortcodes"
    assert texts(document) == ["This article showcases Hugo's Markdown extensions."]


# Jekyll — jekyll/jekyll, docs/_docs/includes.md and docs/_docs/installation/macos.md; the
# include-with-content and kramdown attribute lines as in sinotec2/Focus-on-Air-Quality,
# utilities/Markdown/JekyllSidebarSectionNavigator.md (a just-the-docs site).
JEKYLL = """---
title: Includes
permalink: /docs/includes/
---

# Includes
{: .no_toc }

1. TOC
{:toc}

The `include` tag allows you to include the content from another file:

{% raw %}
```liquid
{% include footer.html %}
```
{% endraw %}

### Install a newer Ruby version via Homebrew {#homebrew}

The {% raw %}`{{ include.content }}`{% endraw %} is a parameter that gets populated when you call the include.

{% include note.html content="Add your note here." %}
{% comment %}Ask the docs team before changing this.{% endcomment %}
Check out the [troubleshooting]({{ site.baseurl }}/docs/troubleshooting/) page of {{ page.title }}.
"""


def test_jekyll_liquid_is_dropped_keeping_an_includes_content_and_raw_text_as_written():
    document = read(JEKYLL)
    assert document.title == "Includes"
    intro, section = texts(document)
    assert intro == (
        "The `include` tag allows you to include the content from another file:\n\n"
        "```liquid\n{% include footer.html %}\n```"  # raw: shown as written, tags and all
    )
    assert section == (
        "The `{{ include.content }}` is a parameter that gets populated when you call the include.\n\n"
        "Add your note here.\n\n"
        "Check out the [troubleshooting](/docs/troubleshooting/) page of Includes."
    )
    assert passages_of(document)[1].heading == ("Includes", "Install a newer Ruby version via Homebrew")


def test_liquid_in_a_page_without_front_matter_is_text():
    # Jekyll processes only files with front matter: a plain article about merge tags keeps them.
    page = "# Email templates\n\nWrite {{ first_name }} where the customer's name should go.\n"
    assert read(page).text == page


# MkDocs — squidfunk/mkdocs-material, docs/setup/ensuring-data-privacy.md
MKDOCS = """---
template: overrides/main.html
---

# Ensuring data privacy

### Cookie consent

[:octicons-tag-24: 8.4.0][Cookie consent support] ·
:octicons-beaker-24: Experimental

``` yaml
extra:
  consent:
    title: Cookie consent
    description: We use cookies {{ not_a_tag }}
```

[`cookies`](#+consent.cookies){ #+consent.cookies }

!!! question "Why can't Material for MkDocs bundle all assets by design?"

    The primary reason why Material for MkDocs can't just bundle all of its own
    assets is the integration with [Google Fonts].

    ===  "Custom cookie name"

        Each cookie must receive a unique identifier.

??? example

    For the official documentation, the privacy plugin downloads the following resources.
"""


def test_mkdocs_admonitions_and_tabs_are_their_title_and_body_and_code_is_untouched():
    document = read(MKDOCS)
    assert document.title == "Ensuring data privacy"
    (passage,) = texts(document)
    assert "```" in passage and "description: We use cookies {{ not_a_tag }}" in passage  # code is code
    assert passage.startswith("[8.4.0][Cookie consent support] ·\nExperimental")
    assert "[`cookies`](#+consent.cookies)\n" in passage
    assert (
        "Why can't Material for MkDocs bundle all assets by design?\n\n"
        "The primary reason why Material for MkDocs can't just bundle all of its own\n"
        "assets is the integration with [Google Fonts].\n\n"
        "Custom cookie name\n\nEach cookie must receive a unique identifier.\n\n"
        "For the official documentation, the privacy plugin downloads the following resources."
    ) in passage  # an untitled "??? example" gives no line of its own
    no_syntax(Document(document.path, document.format, document.title, passage.replace("```", ""), ()))


# Docusaurus — facebook/docusaurus, website/docs/guides/markdown-features/markdown-features-tabs.mdx
DOCUSAURUS = """---
id: tabs
title: Tabs
description: Using tabs inside Docusaurus Markdown
slug: /markdown-features/tabs
---

import Tabs from '@theme/Tabs';

import TabItem from '@theme/TabItem';

To show tabbed content within Markdown files, you can fall back on MDX. Docusaurus provides `<Tabs>` components out-of-the-box.

:::info

By default, tabs are rendered eagerly, but it is possible to load them lazily by passing the `lazy` prop to the `Tabs` component.

:::

## Syncing tab choices {#syncing-tab-choices}

```mdx-code-block
<Tabs groupId="operating-systems">
  <TabItem value="win" label="Windows" default>Use Ctrl + C to copy.</TabItem>
  <TabItem value="mac" label="MacOS">Use Command + C to copy.</TabItem>
</Tabs>
```

<Tabs
  defaultValue="apple"
  values={[
    {label: 'Apple', value: 'apple'},
  ]}>
  <TabItem value="apple">This is an apple</TabItem>
</Tabs>

:::tip[Use tabs sparingly]

Readers skim.

:::
"""


def test_docusaurus_mdx_imports_and_components_go_and_their_text_and_admonitions_stay():
    document = read(DOCUSAURUS, "tabs.mdx")
    assert document.title == "Tabs"
    intro, syncing = (re.sub(r"[ \t]+", " ", t) for t in texts(document))
    assert intro == (
        "To show tabbed content within Markdown files, you can fall back on MDX. Docusaurus provides "
        "`<Tabs>` components out-of-the-box.\n\n"
        "By default, tabs are rendered eagerly, but it is possible to load them lazily by passing the "
        "`lazy` prop to the `Tabs` component."
    )
    assert (
        syncing
        == (
            " Windows: Use Ctrl + C to copy.\n MacOS: Use Command + C to copy.\n\n This is an apple\n\n"
            "Use tabs sparingly\n\nReaders skim."
        ).strip()
    )
    assert passages_of(document)[1].heading == ("Tabs", "Syncing tab choices")
    no_syntax(document)


def test_mdx_files_are_read_as_markdown():
    from ragtui.core.registry.loaders import loader_for

    found = loader_for(".mdx")
    assert found is not None and found.name == "markdown"


# VitePress — vuejs/vitepress, docs/ja/guide/getting-started.md (Japanese) and
# docs/en/guide/using-vue.md (<script setup>, components, v-pre).
VITEPRESS_JA = """# はじめに

## インストール

### 前提条件 {#prerequisites}

VitePress は単独でも利用できますし、既存プロジェクトに組み込むことも可能です。いずれの場合も以下でインストールできます。

::: code-group

```sh [npm]
$ npm add -D vitepress@next
```

:::

::: tip 注意
VitePress は ESM 専用パッケージです。`require()` を使ってインポートせず、最も近い `package.json` に `"type": "module"` を含めてください。
:::

いくつかの簡単な質問が表示されます。

<<< @/snippets/init.ansi

::: tip
デフォルトでは開発サーバーのキャッシュは `.vitepress/cache` に保存されます。
:::
"""

VITEPRESS_VUE = """---
description: Use Vue components and dynamic templating features directly inside Markdown files in VitePress.
---

# Using Vue in Markdown

::: warning Avoid `<style scoped>` in Markdown
When used in Markdown, `<style scoped>` requires adding special attributes to every element on the current page.
:::

<ModalDemo />

::: v-pre
{{ This will be displayed as-is }}
:::

<script setup>
import ModalDemo from '../../components/ModalDemo.vue'
</script>

<style>
.escape-demo {
  border: 1px solid var(--vp-c-border);
}
</style>

<!-- Based on https://github.com/vuejs/language-tools/pull/4321 -->

Vue provides IntelliSense support out of the box.
"""


def test_vitepress_containers_are_their_text_in_japanese_and_code_groups_keep_their_code():
    document = read(VITEPRESS_JA, "ja/getting-started.md")
    assert document.title == "はじめに"
    (passage,) = texts(document)
    assert passages_of(document)[0].heading == ("はじめに", "インストール", "前提条件")
    assert passage == (
        "VitePress は単独でも利用できますし、既存プロジェクトに組み込むことも可能です。いずれの場合も以下でインストールできます。\n\n"
        "```sh [npm]\n$ npm add -D vitepress@next\n```\n\n"
        "注意\n\n"
        'VitePress は ESM 専用パッケージです。`require()` を使ってインポートせず、最も近い `package.json` に `"type": "module"` を含めてください。\n\n'
        "いくつかの簡単な質問が表示されます。\n\n"
        "デフォルトでは開発サーバーのキャッシュは `.vitepress/cache` に保存されます。"
    )


def test_vitepress_script_style_components_and_comments_go_and_v_pre_is_kept_as_written():
    document = read(VITEPRESS_VUE, "using-vue.md")
    assert document.title == "Using Vue in Markdown"
    assert texts(document) == [
        "Avoid `<style scoped>` in Markdown\n\n"
        "When used in Markdown, `<style scoped>` requires adding special attributes to every element on the current page.\n\n"
        "{{ This will be displayed as-is }}\n\n"
        "Vue provides IntelliSense support out of the box."
    ]


def test_a_japanese_hugo_page_with_front_matter_and_a_note_shortcode():
    # The note shortcode as kubernetes/website writes it (content/ja/docs/…): {{< note >}} … {{< /note >}}
    page = (
        "---\ntitle: 返品と交換\nweight: 10\n---\n\n## 返品の条件 {#conditions}\n\n"
        "{{< note >}}\n商品到着後8日以内にご連絡ください。\n{{< /note >}}\n\n"
        '{{< glossary_tooltip text="送料" term_id="shipping" >}}はお客様のご負担です。\n'
    )
    document = read(page, "ja/returns.md")
    assert document.title == "返品と交換"
    assert texts(document) == ["商品到着後8日以内にご連絡ください。\n\n送料はお客様のご負担です。"]
    assert passages_of(document)[0].title == "返品と交換 › 返品の条件"


def test_a_markdown_file_that_opens_with_a_rule_has_no_front_matter():
    page = "---\nThanks for reading.\n---\n\n# Refunds\n\nRefunds take 5 days.\n"
    assert front_matter(page).end == 0
    assert read(page).text == page


def test_a_front_matter_title_in_quotes_or_folded_is_read_whole():
    assert front_matter('---\ntitle: "Refunds: the rules"\n---\n').title == "Refunds: the rules"
    assert front_matter("---\ntitle: 'It''s free'\n---\n").title == "It's free"
    assert front_matter("---\ntitle: >-\n  Moving or\n  leaving\nweight: 1\n---\n").title == "Moving or leaving"
    assert front_matter("---\nweight: 1\n---\n\n# Heading\n").title is None
    empty = front_matter("---\n---\n\n# Heading\n")  # Jekyll's empty front matter
    assert (empty.title, empty.end) == (None, 8)


@pytest.mark.parametrize("folder", ["sample_data/knowledge/en", "sample_data/knowledge/ja", "examples/help-centre/en"])
def test_plain_markdown_reads_exactly_as_written(folder: str):
    files = sorted((ROOT / folder).glob("*.md"))
    assert files
    for path in files:
        assert markdown.load(path.read_bytes(), path.name).text == path.read_text(encoding="utf-8")


def test_plain_text_files_are_never_rewritten():
    text = "---\ntitle: Notes\n---\n\n{{< note >}}Keep this.{{< /note >}}\n"
    assert markdown.load(text.encode(), "notes.txt").text == text


def test_hugo_escaped_shortcodes_and_highlight_blocks_show_as_code():
    # As gohugoio/hugoDocs writes shortcode examples ({{</* … */>}}) and highlight blocks.
    page = (
        '---\ntitle: Shortcodes\n---\n\nWrite {{</* figure src="a.png" */>}} to show a figure.\n\n'
        "{{< highlight html >}}\n<p>{{ .Title }}</p>\n{{< /highlight >}}\n"
    )
    assert texts(read(page)) == [
        'Write {{< figure src="a.png" >}} to show a figure.\n\n```html\n<p>{{ .Title }}</p>\n```'
    ]


def test_unclosed_markers_are_text_and_closed_ones_after_them_still_go():
    page = "---\ntitle: T\n---\n\nA {{< note >}} here, a <!-- there.\n\nCosts `5 {{ x }}` per ``month` day``.\n"
    assert texts(read(page)) == ["A here, a <!-- there.\n\nCosts `5 {{ x }}` per ``month` day``."]
    unclosed = "---\ntitle: T\n---\n\n" + "Open {% tag and {{ value and <!-- note\n\n" * 2000
    assert len(passages_of(read(unclosed))) > 1  # read in linear time, unclosed openers kept as text
