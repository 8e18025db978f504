<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ExportFileDialog</name>
    <message>
        <source>Exporting to %1…</source>
        <translation>正在导出到 %1…</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>HumanFormat</name>
    <message>
        <source>%L1 s</source>
        <translation>%L1 秒</translation>
    </message>
    <message>
        <source>%L1 min</source>
        <translation>%L1 分钟</translation>
    </message>
    <message>
        <source>%L1 min %L2 s</source>
        <translation>%L1 分 %L2 秒</translation>
    </message>
    <message>
        <source>%L1 h</source>
        <translation>%L1 小时</translation>
    </message>
    <message>
        <source>%L1 h %L2 min</source>
        <translation>%L1 小时 %L2 分钟</translation>
    </message>
    <message>
        <source>%L1 d</source>
        <translation>%L1 天</translation>
    </message>
    <message>
        <source>%L1 d %L2 h</source>
        <translation>%L1 天 %L2 小时</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>under a second</source>
        <translation>不到一秒</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>context %1</source>
        <translation>上下文 %1</translation>
    </message>
    <message>
        <source> (RAM %1 + disk %2)</source>
        <translation>（内存 %1 + 磁盘 %2）</translation>
    </message>
    <message>
        <source> (RAM %1)</source>
        <translation>（内存 %1）</translation>
    </message>
    <message>
        <source>, limited by memory</source>
        <translation>，受内存限制</translation>
    </message>
    <message>
        <source>remote server</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>choose a model in Settings (the server serves: %1)</source>
        <translation>请在设置中选择模型（服务器提供：%1）</translation>
    </message>
    <message>
        <source>the server does not serve a model named "%1" (it serves: %2)</source>
        <translation>服务器没有名为“%1”的模型（它提供：%2）</translation>
    </message>
    <message>
        <source>In the prompt: %1</source>
        <translation>提示中包含：%1</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>… 1 more row not shown</source>
        <translation>… 另有 1 行未显示</translation>
    </message>
    <message>
        <source>… %1 more rows not shown</source>
        <translation>… 另有 %1 行未显示</translation>
    </message>
    <message>
        <source>**Tool call** `%1`</source>
        <translation>**工具调用** `%1`</translation>
    </message>
    <message>
        <source>*(no result)*</source>
        <translation>*（无结果）*</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>refused or failed</source>
        <translation>被拒绝或失败</translation>
    </message>
    <message>
        <source>1 row</source>
        <translation>1 行</translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <source>KV</source>
        <translation>KV</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>KV RAM budget (weights and scratch are not in it)</source>
        <translation>KV 内存预算（不含权重和临时缓冲区）</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>mixed</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>shared prefix</source>
        <translation>共享前缀</translation>
    </message>
    <message>
        <source>Cannot create the document-cache folder %1 (is it a file, or read-only?). Documents are read again on every start.</source>
        <translation>无法创建文档缓存文件夹 %1（它是一个文件，还是只读？）。每次启动都将重新读取文档。</translation>
    </message>
    <message>
        <source>Cannot create the document-cache folder %1</source>
        <translation>无法创建文档缓存文件夹 %1</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>Markdown (*.md);;HTML (*.html *.htm);;PDF (*.pdf);;JSON (*.json)</source>
        <translation>Markdown (*.md);;HTML (*.html *.htm);;PDF (*.pdf);;JSON (*.json)</translation>
    </message>
    <message>
        <source>[answer interrupted: %1]</source>
        <translation>[回答中断：%1]</translation>
    </message>
    <message>
        <source>image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1 页</translation>
    </message>
    <message>
        <source>%1 pages</source>
        <translation>%1 页</translation>
    </message>
    <message>
        <source>## Documents

</source>
        <translation>## 文档

</translation>
    </message>
    <message>
        <source> — pinned pages: %1</source>
        <translation> — 固定页：%1</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source> (%1 active)</source>
        <translation>（%1 激活）</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · %4 params</source>
        <translation>%1 · %2 · %3 · %4 参数</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>file size</source>
        <translation>文件大小</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>active / token</source>
        <translation>每词元激活</translation>
    </message>
    <message>
        <source>experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>%1 routed, %2 used</source>
        <translation>%1 个路由专家，使用 %2 个</translation>
    </message>
    <message>
        <source>context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>weights %1</source>
        <translation>权重 %1</translation>
    </message>
    <message>
        <source>%1 in %2 tensors</source>
        <translation>%1，共 %2 个张量</translation>
    </message>
    <message>
        <source>&lt;b&gt;No model loaded.&lt;/b&gt; Folio answers with a GGUF model on this machine. </source>
        <translation>&lt;b&gt;尚未加载模型。&lt;/b&gt;Folio 使用本机上的 GGUF 模型回答问题。</translation>
    </message>
    <message>
        <source>&lt;a href='folio:demo'&gt;Try the demo model&lt;/a&gt; (tiny, random weights: it shows every part of the workbench but writes nonsense). </source>
        <translation>&lt;a href='folio:demo'&gt;试用演示模型&lt;/a&gt;（很小，随机权重：可展示工作台的各个部分，但输出毫无意义）。</translation>
    </message>
    <message>
        <source>For real answers download a GGUF file, e.g. Kimi-VL-A3B-Instruct with its mmproj file (converted by llama.cpp, from Hugging Face), and open it with File → Open model… or Settings.</source>
        <translation>要获得真正的回答，请下载 GGUF 文件，例如 Kimi-VL-A3B-Instruct 及其 mmproj 文件（由 llama.cpp 转换，来自 Hugging Face），然后通过“文件 → 打开模型…”或“设置”打开。</translation>
    </message>
    <message>
        <source>stopped before an answer</source>
        <translation>回答前已停止</translation>
    </message>
    <message>
        <source>Summary of</source>
        <translation>摘要：</translation>
    </message>
    <message>
        <source>%1 prompt tokens (%2 reused)</source>
        <translation>%1 个提示词元（复用 %2）</translation>
    </message>
    <message>
        <source>TTFT %1 ms</source>
        <translation>首词元 %1 毫秒</translation>
    </message>
    <message>
        <source>prefill %1 t/s</source>
        <translation>预填充 %1 词元/秒</translation>
    </message>
    <message>
        <source>decode %1 t/s</source>
        <translation>解码 %1 词元/秒</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped at a stop sequence</source>
        <translation>在停止序列处停止</translation>
    </message>
    <message>
        <source>stopped at the length limit</source>
        <translation>达到长度上限后停止</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>called a tool</source>
        <translation>调用了工具</translation>
    </message>
    <message>
        <source>TTFT %1 ms (%2 ms encoding images)</source>
        <translation>首字延迟 %1 毫秒（其中 %2 毫秒用于编码图像）</translation>
    </message>
</context>
<context>
    <name>folio::ui</name>
    <message>
        <source>This question cannot be answered: the question and the chat's system prompt alone take %L1 tokens, and the model's context of %L2 tokens keeps %L3 for the answer. Shorten the question or the system prompt, lower the answer length in the chat's settings, or load the model with a larger context.</source>
        <translation>无法回答此问题：仅问题和对话的系统提示就占用 %L1 个词元，而模型 %L2 个词元的上下文要为回答保留 %L3 个。请缩短问题或系统提示，在对话设置中减小回答长度，或以更大的上下文加载模型。</translation>
    </message>
    <message>
        <source>This question cannot be answered: its prompt does not fit the model's context of %L1 tokens even without the documents and the earlier conversation. Lower the answer length in the chat's settings or load the model with a larger context.</source>
        <translation>无法回答此问题：即使不含文档和之前的对话，其提示也超出模型 %L1 个词元的上下文。请在对话设置中减小回答长度，或以更大的上下文加载模型。</translation>
    </message>
    <message>
        <source>1 earlier turn left out</source>
        <translation>省略了 1 轮较早的对话</translation>
    </message>
    <message>
        <source>%1 earlier turns left out</source>
        <translation>省略了 %1 轮较早的对话</translation>
    </message>
    <message>
        <source>The table is ragged: its separator row has %1 cells, the header %2.</source>
        <translation>表格不整齐：分隔行有 %1 个单元格，表头有 %2 个。</translation>
    </message>
    <message>
        <source>The table is ragged: row %1 has %2 cells, the header %3.</source>
        <translation>表格不整齐：第 %1 行有 %2 个单元格，表头有 %3 个。</translation>
    </message>
    <message>
        <source>The table has a header but no rows.</source>
        <translation>表格只有表头，没有数据行。</translation>
    </message>
    <message>
        <source>"%1" is not a page or a range: write pages like "1-4, 37".</source>
        <translation>“%1”不是页码或范围：请写成“1-4, 37”这样的形式。</translation>
    </message>
    <message>
        <source>Pages start at 1: "%1" names page 0.</source>
        <translation>页码从 1 开始：“%1”指向第 0 页。</translation>
    </message>
    <message>
        <source>The range "%1" runs backwards: write the lower page first.</source>
        <translation>范围“%1”是倒序的：请先写较小的页码。</translation>
    </message>
    <message>
        <source>Page %1 is beyond the document's %2 pages.</source>
        <translation>第 %1 页超出了文档的 %2 页。</translation>
    </message>
    <message>
        <source>no pages of %1</source>
        <translation>%1 中没有页面</translation>
    </message>
    <message>
        <source>page %1 of %2</source>
        <translation>%2 的第 %1 页</translation>
    </message>
    <message>
        <source>pages %1 of %2</source>
        <translation>%2 的第 %1 页</translation>
    </message>
    <message>
        <source>Cannot open %1 as a PDF to render its pages.</source>
        <translation>无法将 %1 作为 PDF 打开以渲染页面。</translation>
    </message>
    <message>
        <source>%1 has no page %2 (it has %3).</source>
        <translation>%1 没有第 %2 页（共 %3 页）。</translation>
    </message>
    <message>
        <source>Page %1 of %2 has no size to render.</source>
        <translation>%2 的第 %1 页没有可渲染的尺寸。</translation>
    </message>
    <message>
        <source>QtPdf could not render page %1 of %2.</source>
        <translation>QtPdf 无法渲染 %2 的第 %1 页。</translation>
    </message>
    <message>
        <source>The context (%1 tokens) is too small for a summary: the prompt's frame takes %2 tokens and the answer %3. Use a larger context or fewer answer tokens.</source>
        <translation>上下文（%1 个词元）太小，无法生成摘要：提示框架占用 %2 个词元，回答占用 %3 个。请使用更大的上下文或更少的回答词元。</translation>
    </message>
    <message>
        <source>The summary of %1 was shortened to fit the prompt of stage %2.</source>
        <translation>%1 的摘要已被缩短，以适应第 %2 阶段的提示。</translation>
    </message>
    <message>
        <source>Stage %1, part %2 of %3 (%4) failed: %5</source>
        <translation>第 %1 阶段，第 %2/%3 部分（%4）失败：%5</translation>
    </message>
    <message>
        <source>%1 (piece %2 of %3)</source>
        <translation>%1（第 %2/%3 段）</translation>
    </message>
    <message>
        <source>Read in 1 part</source>
        <translation>分 1 部分读取</translation>
    </message>
    <message>
        <source>Read in %1 parts</source>
        <translation>分 %1 部分读取</translation>
    </message>
    <message>
        <source>pages %1.</source>
        <translation>第 %1 页。</translation>
    </message>
    <message>
        <source>page %1 (piece %2 of %3)</source>
        <translation>第 %1 页（第 %2/%3 段）</translation>
    </message>
    <message>
        <source>page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>pages %1–%2</source>
        <translation>第 %1–%2 页</translation>
    </message>
    <message>
        <source>estimating the time left</source>
        <translation>正在估算剩余时间</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <translation>约剩 %1 分钟</translation>
    </message>
    <message>
        <source>about %1 h %2 min left</source>
        <translation>约剩 %1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>stage %1/%2 · part %3 of %4 · %5 · %6</source>
        <translation>阶段 %1/%2 · 第 %3/%4 部分 · %5 · %6</translation>
    </message>
    <message>
        <source>The document has no pages to summarize.</source>
        <translation>该文档没有可摘要的页面。</translation>
    </message>
    <message>
        <source>The images were left out: they do not fit one prompt.</source>
        <translation>图像已省略：一个提示放不下它们。</translation>
    </message>
    <message>
        <source>Page %1 is longer than one prompt: it was read in %2 pieces.</source>
        <translation>第 %1 页超过一个提示的长度：已分 %2 段读取。</translation>
    </message>
    <message>
        <source>The images were left out: the first page fills a prompt.</source>
        <translation>图像已省略：第一页已占满一个提示。</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>scanned page %1 left out: %2</source>
        <translation>扫描页 %1 已省略：%2</translation>
    </message>
    <message>
        <source>scanned pages %1 left out: %2</source>
        <translation>扫描页 %1 已省略：%2</translation>
    </message>
    <message>
        <source>no vision projector is loaded</source>
        <translation>未加载视觉投影器</translation>
    </message>
    <message>
        <source>reading scanned pages as images is off for this document</source>
        <translation>此文档已关闭将扫描页作为图像读取</translation>
    </message>
    <message>
        <source>the attached image left out: the model cannot see images</source>
        <translation>附加的图像已省略：该模型无法识别图像</translation>
    </message>
    <message>
        <source>%1 attached images left out: the model cannot see images</source>
        <translation>%1 张附加图像已省略：该模型无法识别图像</translation>
    </message>
    <message>
        <source>Cannot create the folder for question images %1: check its permissions and free space.</source>
        <translation>无法创建问题图像文件夹 %1：请检查其权限和可用空间。</translation>
    </message>
    <message>
        <source>%1 is not an image Folio can read (PNG, JPEG, …): choose another file.</source>
        <translation>%1 不是 Folio 能读取的图像（PNG、JPEG 等）：请选择其他文件。</translation>
    </message>
    <message>
        <source>%1 is %2 × %3 pixels, more than Folio takes (%4 million): scale it down or attach a part of it.</source>
        <translation>%1 为 %2 × %3 像素，超过了 Folio 的上限（%4 百万像素）：请缩小图像或只附加其中一部分。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is damaged: it does not decode as an image.</source>
        <translation>%1 已损坏：无法解码为图像。</translation>
    </message>
    <message>
        <source>Cannot encode the image as PNG.</source>
        <translation>无法将图像编码为 PNG。</translation>
    </message>
    <message>
        <source>Cannot create the folder of rendered pages %1: check its permissions and free space.</source>
        <translation>无法创建渲染页面文件夹 %1：请检查其权限和可用空间。</translation>
    </message>
    <message>
        <source>Cannot save the rendered page %1 of %2 in %3: check the free space.</source>
        <translation>无法将 %2 的渲染页面第 %1 页保存到 %3：请检查可用空间。</translation>
    </message>
    <message>
        <source>The selected part of page %1 is empty.</source>
        <translation>第 %1 页的所选区域为空。</translation>
    </message>
    <message>
        <source>Scanned page %1 went in without its image: it does not fit one prompt.</source>
        <translation>扫描页 %1 未附带图像放入：一个提示放不下它。</translation>
    </message>
    <message>
        <source>Scanned pages %1 went in without their images: they do not fit one prompt.</source>
        <translation>扫描页 %1 未附带图像放入：一个提示放不下它们。</translation>
    </message>
    <message>
        <source>No system keyring could keep the API key (%1): it is stored in plain text in %2, readable by your user account only.</source>
        <translation>没有可保存 API 密钥的系统密钥环（%1）：密钥以明文存储在 %2 中，仅你的用户账户可读。</translation>
    </message>
    <message>
        <source>The API key is kept in the system keyring, which cannot be read now (%1). Start the keyring, or enter the key again in Settings.</source>
        <translation>API 密钥保存在系统密钥环中，但目前无法读取（%1）。请启动密钥环，或在“设置”中重新输入密钥。</translation>
    </message>
    <message>
        <source>it did not keep the key</source>
        <translation>它未能保存密钥</translation>
    </message>
    <message>
        <source>No system keyring could keep the API key (%1): it is stored in plain text in %2, which other users may be able to read. Restrict the file (chmod 600), or start a keyring and enter the key again in Settings.</source>
        <translation>没有系统密钥环可以保存 API 密钥（%1）：它以明文保存在 %2 中，其他用户可能可以读取。请限制该文件的权限（chmod 600），或启动密钥环后在“设置”中重新输入密钥。</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Chinese (Simplified)</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>%1, mean confidence %2%</source>
        <translation>%1，平均置信度 %2%</translation>
    </message>
    <message>
        <source>page %1 read with OCR (%2)</source>
        <translation>第 %1 页已用 OCR 识别（%2）</translation>
    </message>
    <message>
        <source>%1 pages read with OCR (%2)</source>
        <translation>%1 页已用 OCR 识别（%2）</translation>
    </message>
    <message>
        <source>scanned page %1 as an image</source>
        <translation>扫描页第 %1 页以图像送入</translation>
    </message>
    <message>
        <source>scanned pages %1 as images</source>
        <translation>扫描页第 %1 页以图像送入</translation>
    </message>
    <message>
        <source>%1, page %2</source>
        <translation>%1，第 %2 页</translation>
    </message>
    <message>
        <source>%1 is on the cited %2: “%3”</source>
        <translation>%1 出现在所引的%2：“%3”</translation>
    </message>
    <message>
        <source>%1 is not on the cited page %2 but on %3: “%4” — click to open it</source>
        <translation>%1 不在所引的第 %2 页，而在%3：“%4”——点击打开</translation>
    </message>
    <message>
        <source>%1 was not found on page %2 nor elsewhere in the document</source>
        <translation>在第 %2 页和文档其他位置均未找到 %1</translation>
    </message>
    <message>
        <source>%1 was not found: its citation names no document at hand</source>
        <translation>未找到 %1：其引用指向的文档不在当前对话中</translation>
    </message>
    <message>
        <source>%1 is in a sentence without a citation: not checked</source>
        <translation>%1 所在的句子没有引用：未核对</translation>
    </message>
    <message numerus="yes">
        <source>%n verified</source>
        <translation>
            <numerusform>%n 个已核实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n on another page</source>
        <translation>
            <numerusform>%n 个在其他页</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n not found</source>
        <translation>
            <numerusform>%n 个未找到</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n uncited</source>
        <translation>
            <numerusform>%n 个无引用</numerusform>
        </translation>
    </message>
    <message>
        <source>Figures: %1</source>
        <translation>数字：%1</translation>
    </message>
    <message>
        <source>%1 (pinned)</source>
        <translation>%1（已固定）</translation>
    </message>
    <message>
        <source>%1 (cited before)</source>
        <translation>%1（此前引用过）</translation>
    </message>
    <message>
        <source>%1 (best match)</source>
        <translation>%1（最佳匹配）</translation>
    </message>
    <message>
        <source>%1 (contents)</source>
        <translation>%1（目录）</translation>
    </message>
    <message>
        <source>%1 (other matches)</source>
        <translation>%1（其他匹配）</translation>
    </message>
    <message>
        <source>%1 (room left)</source>
        <translation>%1（填充剩余空间）</translation>
    </message>
    <message>
        <source>page %1 of %L2</source>
        <translation>第 %1 页，共 %L2 页</translation>
    </message>
    <message>
        <source>pages %1 of %L2</source>
        <translation>第 %1 页，共 %L2 页</translation>
    </message>
    <message>
        <source>The model's answer did not contain a table. Try again, or choose another image.</source>
        <translation>模型的回答中没有表格。请重试，或选择另一张图像。</translation>
    </message>
    <message>
        <source>No header row followed by a separator row (| --- |) was found.</source>
        <translation>没有找到后跟分隔行（| --- |）的表头行。</translation>
    </message>
    <message>
        <source>scanned page %1 as OCR text (mean confidence %2%)</source>
        <translation>扫描页第 %1 页以 OCR 文本送入（平均置信度 %2%）</translation>
    </message>
    <message>
        <source>scanned pages %1 as OCR text (mean confidence %2%)</source>
        <translation>扫描页第 %1 页以 OCR 文本送入（平均置信度 %2%）</translation>
    </message>
    <message>
        <source>, combined once (2 stages)</source>
        <translation>，合并 1 轮（共 2 个阶段）</translation>
    </message>
    <message>
        <source>, combined in %1 rounds (%2 stages)</source>
        <translation>，合并 %1 轮（共 %2 个阶段）</translation>
    </message>
    <message>
        <source>stage %1 · part %2 of %3 · %4 · %5</source>
        <translation>阶段 %1 · 第 %2/%3 部分 · %4 · %5</translation>
    </message>
    <message>
        <source>%1 is in the result of query %2: “%3”</source>
        <translation>%1 见于查询 %2 的结果：“%3”</translation>
    </message>
    <message>
        <source>%1 was not found in the results of the answer's queries</source>
        <translation>在该回答的查询结果中未找到 %1</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>已核实</translation>
    </message>
    <message>
        <source>on another page</source>
        <translation>在其他页</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>no citation</source>
        <translation>无引用</translation>
    </message>
    <message>
        <source>%1, p. %2</source>
        <translation>%1，第 %2 页</translation>
    </message>
    <message>
        <source>p. %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>query results</source>
        <translation>查询结果</translation>
    </message>
    <message>
        <source>query %1</source>
        <translation>查询 %1</translation>
    </message>
    <message>
        <source>Figures checked</source>
        <translation>已核查的数字</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Cited</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Found</source>
        <translation>找到</translation>
    </message>
    <message>
        <source>Line on the page</source>
        <translation>页面中的该行</translation>
    </message>
    <message>
        <source>no template “%1”: give a template file, or one of %2</source>
        <translation>没有模板“%1”：请给出模板文件，或使用以下之一：%2</translation>
    </message>
    <message>
        <source>as cited: %1</source>
        <translation>原引用：%1</translation>
    </message>
    <message>
        <source>pp. %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>*Not written: %1*</source>
        <translation>*未撰写：%1*</translation>
    </message>
    <message>
        <source>*Not written yet.*</source>
        <translation>*尚未撰写。*</translation>
    </message>
    <message>
        <source>%1 (%2, %3 pages)</source>
        <translation>%1（%2，%3 页）</translation>
    </message>
    <message>
        <source>From: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message>
        <source>charts: %1</source>
        <translation>图表：%1</translation>
    </message>
    <message>
        <source>data: %1</source>
        <translation>数据：%1</translation>
    </message>
    <message>
        <source>model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>figures not found</source>
        <translation>有数字未找到</translation>
    </message>
    <message>
        <source>not written</source>
        <translation>未撰写</translation>
    </message>
    <message>
        <source>the ODT writer failed</source>
        <translation>ODT 写入失败</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Section</source>
        <translation>章节</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>注释</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>- %1%2 (%3, %4 pages): no pages used</source>
        <translation>- %1%2（%3，%4 页）：未使用任何页面</translation>
    </message>
    <message>
        <source>- %1%2 (%3): %4</source>
        <translation>- %1%2（%3）：%4</translation>
    </message>
    <message>
        <source>- Chart: %1</source>
        <translation>- 图表：%1</translation>
    </message>
    <message>
        <source>- Data: %1</source>
        <translation>- 数据：%1</translation>
    </message>
    <message>
        <source>section %1 of %2 · %3 · %4</source>
        <translation>第 %1/%2 节 · %3 · %4</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余%1</translation>
    </message>
    <message>
        <source>cancelled at the section “%1”</source>
        <translation>在“%1”一节处已取消</translation>
    </message>
    <message>
        <source>the section “%1” failed: %2</source>
        <translation>“%1”一节失败：%2</translation>
    </message>
    <message>
        <source>not a Folio report</source>
        <translation>不是 Folio 报告</translation>
    </message>
    <message>
        <source>a report of version %1, made by a newer Folio: update Folio to open it</source>
        <translation>该报告为第 %1 版，由更新版本的 Folio 生成：请更新 Folio 后打开</translation>
    </message>
    <message>
        <source>its template does not read: %1</source>
        <translation>其模板无法读取：%1</translation>
    </message>
    <message>
        <source>it has %1 sections but its template %2</source>
        <translation>报告有 %1 节，但其模板有 %2 节</translation>
    </message>
    <message>
        <source>%1: cannot open the report (%2)</source>
        <translation>%1：无法打开报告（%2）</translation>
    </message>
    <message>
        <source>%1: the report file is damaged (%2 at byte %3); an earlier copy may be in your backups</source>
        <translation>%1：报告文件已损坏（%2，位于第 %3 字节）；备份中可能有较早的副本</translation>
    </message>
    <message>
        <source>%1: cannot read the template (%2)</source>
        <translation>%1：无法读取模板（%2）</translation>
    </message>
    <message>
        <source>%1: a template is a short text file; this one is over 1 MiB</source>
        <translation>%1：模板应是简短的文本文件，此文件超过 1 MiB</translation>
    </message>
    <message>
        <source>the section “%1” does not fit a context of %2 tokens: its instruction takes %3; load the model with a larger context</source>
        <translation>“%1”一节无法放入 %2 个词元的上下文：其说明就占 %3 个；请以更大的上下文加载模型</translation>
    </message>
</context>
<context>
    <name>folio::ui::AttachmentChips</name>
    <message>
        <source>Remove %1 from this chat</source>
        <translation>从此对话中移除 %1</translation>
    </message>
</context>
<context>
    <name>folio::ui::BlockMapView</name>
    <message>
        <source>KV cache block map</source>
        <translation>KV 缓存块图</translation>
    </message>
    <message>
        <source>One cell per cached block of each session, coloured by tier: RAM, disk or mixed; hover a cell for its tokens.</source>
        <translation>每个会话的每个缓存块一个格子，按层级着色：内存、磁盘或混合；将鼠标悬停在格子上可查看其词元。</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>partly RAM, partly disk</source>
        <translation>部分在内存，部分在磁盘</translation>
    </message>
    <message>
        <source>session %1: %L2 tokens cached in %L3 blocks of %L4 tokens</source>
        <translation>会话 %1：%L2 个词元缓存在 %L3 个块中（每块 %L4 个词元）</translation>
    </message>
    <message>
        <source>session %1 · block %L2 · tokens %L3–%L4 · %5</source>
        <translation>会话 %1 · 块 %L2 · 词元 %L3–%L4 · %5</translation>
    </message>
    <message>
        <source> · shared with another session or the prefix cache</source>
        <translation> · 与其他会话或前缀缓存共享</translation>
    </message>
    <message>
        <source>No cached blocks</source>
        <translation>没有缓存块</translation>
    </message>
    <message>
        <source>session %1 · %L2 tokens · %3 blocks (%4 shared)</source>
        <translation>会话 %1 · %L2 个词元 · %3 个块（%4 个共享）</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatController</name>
    <message>
        <source>Waiting for %1 to finish loading…</source>
        <translation>正在等待 %1 加载完成…</translation>
    </message>
    <message>
        <source>Waiting for the answer in “%1” to finish…</source>
        <translation>正在等待“%1”中的回答完成…</translation>
    </message>
    <message>
        <source>Waiting for the answer being given to finish…</source>
        <translation>正在等待当前回答完成…</translation>
    </message>
    <message>
        <source>Waited for its turn: a question in another chat was being answered.</source>
        <translation>已排队等候：另一个对话中的问题正在回答。</translation>
    </message>
    <message>
        <source>Waited for %1 to finish loading.</source>
        <translation>已等待 %1 加载完成。</translation>
    </message>
    <message>
        <source>Stopped waiting: the question was not sent.</source>
        <translation>已停止等待：问题未发送。</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatDocuments</name>
    <message>
        <source>%1: unsupported file type (PDF, PNG, JPEG, BMP, GIF)</source>
        <translation>%1：不支持的文件类型（支持 PDF、PNG、JPEG、BMP、GIF）</translation>
    </message>
    <message>
        <source>%1 is missing (it was at %2).</source>
        <translation>%1 已缺失（原位于 %2）。</translation>
    </message>
    <message>
        <source>%1 has changed since it was added to this chat (%2); answers use the file as it is now.</source>
        <translation>%1 在加入此对话后已更改（%2）；回答将使用文件的当前内容。</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <translation>约剩 %1 分钟</translation>
    </message>
    <message>
        <source>OCR: %1 of %2 pages</source>
        <translation>OCR：第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <source>%1: OCR stopped; the pages read so far are kept (right-click → Read scanned pages with OCR to go on).</source>
        <translation>%1：OCR 已停止；已识别的页面会保留（右键 → 用 OCR 识别扫描页 可继续）。</translation>
    </message>
    <message>
        <source>OCR could not read page %1</source>
        <translation>OCR 无法识别第 %1 页</translation>
    </message>
    <message>
        <source>OCR could not read %1 pages</source>
        <translation>OCR 无法识别 %1 页</translation>
    </message>
    <message>
        <source>1 page not read with OCR yet</source>
        <translation>还有 1 页尚未用 OCR 识别</translation>
    </message>
    <message>
        <source>%1 pages not read with OCR yet</source>
        <translation>还有 %1 页尚未用 OCR 识别</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatDocumentsSync</name>
    <message>
        <source>Locate %1</source>
        <translation>定位 %1</translation>
    </message>
    <message>
        <source>Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)</source>
        <translation>文档 (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Removed “%1” from the chat.</source>
        <translation>已从对话中移除“%1”。</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatLibrary</name>
    <message>
        <source>Cannot save the chat: %1</source>
        <translation>无法保存对话：%1</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatMessage</name>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatPane</name>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Chat settings…</source>
        <translation>对话设置…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>No model loaded. Open a GGUF model (File → Open model…) to ask questions; documents can be opened and read meanwhile.</source>
        <translation>尚未加载模型。请打开 GGUF 模型（文件 → 打开模型…）后提问；在此期间可以打开并读取文档。</translation>
    </message>
    <message>
        <source>%1 · %2 messages</source>
        <translation>%1 · %2 条消息</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Rename chat</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Locate…</source>
        <translation>定位…</translation>
    </message>
    <message>
        <source>Editing a question: Send asks it as a new version; the earlier one and its answers are kept (‹ › switches).</source>
        <translation>正在编辑问题：发送后将作为新版本提问；之前的版本及其回答会保留（用 ‹ › 切换）。</translation>
    </message>
    <message>
        <source>Cancel edit</source>
        <translation>取消编辑</translation>
    </message>
    <message>
        <source>Deleted “%1”.</source>
        <translation>已删除“%1”。</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Folio stopped before this answer was finished.</source>
        <translation>Folio 在此回答完成之前停止了。</translation>
    </message>
</context>
<context>
    <name>folio::ui::ChatSettingsDialog</name>
    <message>
        <source>Chat settings</source>
        <translation>对话设置</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>系统提示</translation>
    </message>
    <message>
        <source>Temperature (0: greedy)</source>
        <translation>温度（0：贪婪）</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>Answer length (tokens)</source>
        <translation>回答长度（词元）</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Prompt-lookup speculation</source>
        <translation>提示查找推测解码</translation>
    </message>
    <message>
        <source>not fixed</source>
        <translation>不固定</translation>
    </message>
</context>
<context>
    <name>folio::ui::ContextGauge</name>
    <message>
        <source>context: no model</source>
        <translation>上下文：无模型</translation>
    </message>
    <message>
        <source>context: %L1 / %L2 tokens (%3%)</source>
        <translation>上下文：%L1 / %L2 个词元（%3%）</translation>
    </message>
    <message>
        <source>Preparing the prompt…</source>
        <translation>正在准备提示…</translation>
    </message>
    <message>
        <source>Encoding page images %1/%2…</source>
        <translation>正在编码页面图像 %1/%2…</translation>
    </message>
    <message>
        <source>reading the prompt: %L1 / %L2 tokens · %3 left</source>
        <translation>正在读取提示：%L1 / %L2 个词元 · 剩余 %3</translation>
    </message>
    <message>
        <source>writing the answer: %L1 tokens</source>
        <translation>正在写回答：%L1 个词元</translation>
    </message>
    <message>
        <source>writing the answer: 1 token</source>
        <translation>正在写回答：1 个词元</translation>
    </message>
</context>
<context>
    <name>folio::ui::DataSourcesBar</name>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Attach a SQLite database or CSV files the model may query (read-only SQL)</source>
        <translation>附加模型可查询的 SQLite 数据库或 CSV 文件（只读 SQL）</translation>
    </message>
    <message>
        <source>Attach SQLite database…</source>
        <translation>附加 SQLite 数据库…</translation>
    </message>
    <message>
        <source>Attach a SQLite database</source>
        <translation>附加 SQLite 数据库</translation>
    </message>
    <message>
        <source>SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)</source>
        <translation>SQLite 数据库 (*.db *.sqlite *.sqlite3);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Attach CSV files…</source>
        <translation>附加 CSV 文件…</translation>
    </message>
    <message>
        <source>Attach CSV files</source>
        <translation>附加 CSV 文件</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Remove data sources</source>
        <translation>移除数据源</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Let the model run read-only SQL queries on the attached data</source>
        <translation>允许模型对附加的数据运行只读 SQL 查询</translation>
    </message>
    <message>
        <source>%1 not found (%2): attach it again</source>
        <translation>未找到 %1（%2）：请重新附加</translation>
    </message>
    <message>
        <source>No data sources</source>
        <translation>无数据源</translation>
    </message>
</context>
<context>
    <name>folio::ui::DevicesPane</name>
    <message>
        <source>Machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>%1
%2 logical cores · %3</source>
        <translation>%1
%2 个逻辑核心 · %3</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>&lt;b&gt;KV cache budget&lt;/b&gt; per cache device</source>
        <translation>各缓存设备的 &lt;b&gt;KV 缓存预算&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Cache devices</source>
        <translation>缓存设备</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>KV and state</source>
        <translation>KV 与状态</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Throughput table</source>
        <translation>吞吐量表</translation>
    </message>
    <message>
        <source>Show as table</source>
        <translation>以表格显示</translation>
    </message>
    <message>
        <source>Show throughput as a table</source>
        <translation>以表格显示吞吐量</translation>
    </message>
    <message>
        <source>No work yet.</source>
        <translation>尚无任务。</translation>
    </message>
    <message>
        <source>Work since start</source>
        <translation>启动以来的工作</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Empty: no model loaded.</source>
        <translation>空：尚未加载模型。</translation>
    </message>
    <message>
        <source>KV cache figures</source>
        <translation>KV 缓存数据</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model facts</source>
        <translation>模型信息</translation>
    </message>
    <message>
        <source>Fact</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>no model loaded</source>
        <translation>尚未加载模型</translation>
    </message>
    <message>
        <source>
prefix hits %L1 / misses %L2 blocks (%L3 tokens reused) · speculation acceptance %4%</source>
        <translation>
前缀命中 %L1 / 未命中 %L2 个块（复用 %L3 个词元）· 推测接受率 %4%</translation>
    </message>
    <message>
        <source>
moved: %1 to disk, %2 from disk (now %3/s out, %4/s in)</source>
        <translation>
已移动：%1 写入磁盘，%2 从磁盘读回（当前写出 %3/秒，读入 %4/秒）</translation>
    </message>
    <message>
        <source>read %L1 prompt tokens in %2 of work (%L3 t/s)</source>
        <translation>用 %2 的工作读取了 %L1 个提示词元（%L3 词元/秒）</translation>
    </message>
    <message>
        <source>wrote %L1 tokens in %2 (%L3 t/s)</source>
        <translation>用 %2 生成了 %L1 个词元（%L3 词元/秒）</translation>
    </message>
    <message>
        <source>Since start: %1.</source>
        <translation>启动以来：%1。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Using %1 of %2 threads: other programs keep %3 CPUs busy.</source>
        <translation>使用 %2 个线程中的 %1 个：其他程序占用了 %3 个 CPU。</translation>
    </message>
    <message>
        <source>%1 (all in RAM)</source>
        <translation>%1（全部在内存中）</translation>
    </message>
    <message>
        <source>%1 (%2 in RAM + %3 on disk)</source>
        <translation>%1（内存中 %2 + 磁盘上 %3）</translation>
    </message>
    <message>
        <source>The map's %L1 blocks of %L2 tokens: %L3 in RAM, %L4 on disk, %L5 partly on disk</source>
        <translation>图中 %L1 个块（每块 %L2 个词元）：内存中 %L3 个，磁盘上 %L4 个，部分在磁盘 %L5 个</translation>
    </message>
    <message>
        <source>Stored as %L1 layer blocks (one per layer, shared ones once): %L2 in RAM, %L3 on disk</source>
        <translation>存储为 %L1 个层块（每层一个，共享的只计一次）：内存中 %L2 个，磁盘上 %L3 个</translation>
    </message>
    <message>
        <source>KV %1 · %L2 tokens cached in %L3 sessions (largest %L4 of %L5)</source>
        <translation>KV %1 · %L2 个词元缓存在 %L3 个会话中（最大 %L4 / %L5）</translation>
    </message>
</context>
<context>
    <name>folio::ui::DocumentCachesPanel</name>
    <message>
        <source>Documents read by a model are kept here, so the next question (also after a restart) does not read them again. Folder: %1</source>
        <translation>模型读过的文档保存在这里，之后的提问（重启后也一样）无需重新读取。文件夹：%1</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Size budget</source>
        <translation>容量预算</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete all</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <source>1 cache</source>
        <translation>1 个缓存</translation>
    </message>
    <message>
        <source>%1 caches</source>
        <translation>%1 个缓存</translation>
    </message>
    <message>
        <source> · %1 of %2</source>
        <translation> · %1 / %2</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Deleted 1 cache (%1).</source>
        <translation>已删除 1 个缓存（%1）。</translation>
    </message>
    <message>
        <source>Deleted %1 caches (%2).</source>
        <translation>已删除 %1 个缓存（%2）。</translation>
    </message>
</context>
<context>
    <name>folio::ui::DocumentReader</name>
    <message>
        <source>the snapshot cannot be used (%1); reading the documents again</source>
        <translation>快照无法使用（%1）；正在重新读取文档</translation>
    </message>
    <message>
        <source>The documents could not be read ahead: %1. Questions still include them.</source>
        <translation>无法预先读取文档：%1。提问时仍会包含它们。</translation>
    </message>
    <message>
        <source>The document cache could not be saved (%1). The documents stay read until the model changes; nothing else was affected.</source>
        <translation>无法保存文档缓存（%1）。在更换模型之前文档仍保持已读状态；其他内容不受影响。</translation>
    </message>
    <message>
        <source>The document cache could not be saved: %1. The documents stay read until the model changes.</source>
        <translation>无法保存文档缓存：%1。在更换模型之前文档仍保持已读状态。</translation>
    </message>
</context>
<context>
    <name>folio::ui::DocumentsPane</name>
    <message>
        <source>Open document…</source>
        <translation>打开文档…</translation>
    </message>
    <message>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected document from this chat (Delete)</source>
        <translation>从此对话中移除所选文档（Delete）</translation>
    </message>
    <message>
        <source>↑</source>
        <translation>↑</translation>
    </message>
    <message>
        <source>Move up (earlier in the prompt)</source>
        <translation>上移（在提示中更靠前）</translation>
    </message>
    <message>
        <source>↓</source>
        <translation>↓</translation>
    </message>
    <message>
        <source>Move down (later in the prompt)</source>
        <translation>下移（在提示中更靠后）</translation>
    </message>
    <message>
        <source>Pin pages…</source>
        <translation>固定页面…</translation>
    </message>
    <message>
        <source>Pages of the selected PDF that always go into the prompt</source>
        <translation>所选 PDF 中始终放入提示的页面</translation>
    </message>
    <message>
        <source>Open a PDF report or a chart image (File → Open document…), or drop files here.</source>
        <translation>打开 PDF 报告或图表图片（文件 → 打开文档…），或将文件拖放到这里。</translation>
    </message>
    <message>
        <source>No documents</source>
        <translation>没有文档</translation>
    </message>
    <message>
        <source>1 document</source>
        <translation>1 个文档</translation>
    </message>
    <message>
        <source>%1 documents</source>
        <translation>%1 个文档</translation>
    </message>
    <message>
        <source> · %1 pages · %2 tokens</source>
        <translation> · %1 页 · %2 个词元</translation>
    </message>
    <message>
        <source> · %1 pages · ~%2 tokens</source>
        <translation> · %1 页 · 约 %2 个词元</translation>
    </message>
    <message>
        <source>
fits in the %1-token context</source>
        <translation>
可放入 %1 词元的上下文</translation>
    </message>
    <message>
        <source>
longer than the %1-token context: the pages that go in are chosen for each question and named on it</source>
        <translation>
超过 %1 词元的上下文：每次提问会挑选放入的页面，并在问题上注明</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <source> · cited: p. %1</source>
        <translation> · 引用：第 %1 页</translation>
    </message>
    <message>
        <source>reading page %1 of %2…</source>
        <translation>正在读取第 %1 页，共 %2 页…</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>image %1×%2 · ~%3 tokens</source>
        <translation>图像 %1×%2 · 约 %3 个词元</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1 页</translation>
    </message>
    <message>
        <source>%1 pages</source>
        <translation>%1 页</translation>
    </message>
    <message>
        <source> · ~%1 tokens</source>
        <translation> · 约 %1 个词元</translation>
    </message>
    <message>
        <source> · %1 without text</source>
        <translation> · %1 无文字</translation>
    </message>
    <message>
        <source> · pinned: %1</source>
        <translation> · 固定：%1</translation>
    </message>
    <message>
        <source>missing: %1 (right-click → Locate…)</source>
        <translation>缺失：%1（右键 → 定位…）</translation>
    </message>
    <message>
        <source> · changed since it was added (right-click → Locate…)</source>
        <translation> · 添加后已更改（右键 → 定位…）</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Pin pages</source>
        <translation>固定页面</translation>
    </message>
    <message>
        <source>Pages of %1 that always go into the prompt (e.g. 1-4, 37; empty for none):</source>
        <translation>%1 中始终放入提示的页面（例如 1-4, 37；留空表示无）：</translation>
    </message>
    <message>
        <source>Pages of %1: %2</source>
        <translation>%1 的页面：%2</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Locate…</source>
        <translation>定位…</translation>
    </message>
    <message>
        <source> (not read as images)</source>
        <translation>（不作为图像读取）</translation>
    </message>
    <message>
        <source>Read scanned pages with the vision model</source>
        <translation>用视觉模型读取扫描页</translation>
    </message>
    <message>
        <source>Attach to the question</source>
        <translation>附加到问题</translation>
    </message>
    <message>
        <source>Attach page %1 to the question</source>
        <translation>将第 %1 页附加到问题</translation>
    </message>
    <message>
        <source>Attach a part of page %1…</source>
        <translation>附加第 %1 页的一部分…</translation>
    </message>
    <message>
        <source>Stop OCR</source>
        <translation>停止 OCR</translation>
    </message>
    <message>
        <source>Read scanned pages with OCR</source>
        <translation>用 OCR 识别扫描页</translation>
    </message>
    <message>
        <source>OCR language</source>
        <translation>OCR 语言</translation>
    </message>
    <message>
        <source>Automatic (from the document's script)</source>
        <translation>自动（根据文档的文字）</translation>
    </message>
    <message>
        <source>Automatic (detected: %1)</source>
        <translation>自动（检测到：%1）</translation>
    </message>
</context>
<context>
    <name>folio::ui::ExportChatAction</name>
    <message>
        <source>&amp;Export chat…</source>
        <translation>导出对话(&amp;E)…</translation>
    </message>
    <message>
        <source>Export chat</source>
        <translation>导出对话</translation>
    </message>
</context>
<context>
    <name>folio::ui::ExtractTableAction</name>
    <message>
        <source>Extract &amp;table from image</source>
        <translation>从图像提取表格(&amp;T)</translation>
    </message>
    <message>
        <source>Table extraction was stopped.</source>
        <translation>表格提取已停止。</translation>
    </message>
    <message>
        <source>No model is ready: open a model (with a vision projector) or connect to a server first.</source>
        <translation>没有就绪的模型：请先打开模型（带视觉投影器）或连接服务器。</translation>
    </message>
    <message>
        <source>The model cannot see images: load a vision projector with the model (Settings → Vision projector, or --mmproj), or use a server that takes images.</source>
        <translation>该模型无法识别图像：请随模型加载视觉投影器（设置 → 视觉投影器，或 --mmproj），或使用支持图像的服务器。</translation>
    </message>
    <message>
        <source>Ask the model to read the selected chart or table image, or the table on the page shown, into a table you can copy and export</source>
        <translation>让模型把所选的图表或表格图片，或当前页上的表格，读成可复制和导出的表格</translation>
    </message>
    <message>
        <source>Extract &amp;table from page %1</source>
        <translation>从第 %1 页提取表格(&amp;T)</translation>
    </message>
    <message>
        <source>%1, page %2</source>
        <translation>%1，第 %2 页</translation>
    </message>
</context>
<context>
    <name>folio::ui::FindActions</name>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find &amp;next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
</context>
<context>
    <name>folio::ui::FindBar</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Find text</source>
        <translation>查找文本</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>p. %1, OCR text: %2</source>
        <translation>第 %1 页，OCR 文本：%2</translation>
    </message>
    <message>
        <source>p. %1: %2</source>
        <translation>第 %1 页：%2</translation>
    </message>
</context>
<context>
    <name>folio::ui::FolioMemoryView</name>
    <message>
        <source>&lt;b&gt;Folio&lt;/b&gt; (this program)</source>
        <translation>&lt;b&gt;Folio&lt;/b&gt;（本程序）</translation>
    </message>
    <message>
        <source>Folio's memory by category</source>
        <translation>Folio 按类别的内存使用</translation>
    </message>
    <message>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Model weights, resident</source>
        <translation>模型权重（常驻）</translation>
    </message>
    <message>
        <source>KV cache in RAM</source>
        <translation>内存中的 KV 缓存</translation>
    </message>
    <message>
        <source>KV cache on disk</source>
        <translation>磁盘上的 KV 缓存</translation>
    </message>
    <message>
        <source>Recurrent state</source>
        <translation>循环状态</translation>
    </message>
    <message>
        <source>Scratch buffers</source>
        <translation>临时缓冲区</translation>
    </message>
    <message>
        <source>Folio process in RAM</source>
        <translation>Folio 进程占用内存</translation>
    </message>
    <message>
        <source>Attention blocks (and index keys) held in RAM; this is what the KV RAM budget limits, with the recurrent state.</source>
        <translation>保存在内存中的注意力块（及索引键）；KV 内存预算限制的就是它和循环状态。</translation>
    </message>
    <message>
        <source>Blocks moved to the offload folder.</source>
        <translation>已移到卸载文件夹的块。</translation>
    </message>
    <message>
        <source>Recurrent (linear attention) states and their checkpoints.</source>
        <translation>循环（线性注意力）状态及其检查点。</translation>
    </message>
    <message>
        <source>Evaluation buffers of the sessions.</source>
        <translation>各会话的计算缓冲区。</translation>
    </message>
    <message>
        <source>Resident set of the whole process (all of the above that is in RAM, plus the application itself).</source>
        <translation>整个进程的常驻内存（以上所有位于内存中的部分，加上程序本身）。</translation>
    </message>
    <message>
        <source>Machine memory</source>
        <translation>本机内存</translation>
    </message>
    <message>
        <source>no model loaded</source>
        <translation>尚未加载模型</translation>
    </message>
    <message>
        <source>%L1 % of the file</source>
        <translation>文件的 %L1 %</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>not measured yet</source>
        <translation>尚未测量</translation>
    </message>
    <message>
        <source>KV RAM budget %1 (with state)</source>
        <translation>KV 内存预算 %1（含状态）</translation>
    </message>
    <message>
        <source>no KV RAM budget</source>
        <translation>无 KV 内存预算</translation>
    </message>
    <message>
        <source>no disk tier (no offload folder)</source>
        <translation>无磁盘层（未设置卸载文件夹）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>resident set (VmRSS)</source>
        <translation>常驻内存（VmRSS）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Machine&lt;/b&gt; (all programs): used %1 · available %2 · total %3. Used leaves out the page cache; it moves with every program.</source>
        <translation>&lt;b&gt;本机&lt;/b&gt;（所有程序）：已用 %1 · 可用 %2 · 总计 %3。已用不含页面缓存；它随每个程序变化。</translation>
    </message>
    <message>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <source>The model file's size. Mapped read-only, it is address space, not RAM; copied into RAM (Settings, Model weights), it stays in memory and is safe from the file changing.</source>
        <translation>模型文件的大小。以只读方式映射时，它占用的是地址空间而非内存；复制到内存后（设置 → 模型权重），它常驻内存，且不受文件变化的影响。</translation>
    </message>
    <message>
        <source>The model's bytes in RAM now: all of a copy; of a mapped file, the pages the system holds (measured every few seconds; it may drop them and read them again).</source>
        <translation>模型当前在内存中的字节数：复制时为全部；映射文件时为系统持有的页面（每隔几秒测量一次；系统可能丢弃这些页面并重新读取）。</translation>
    </message>
    <message>
        <source>copied into RAM, 2 MiB pages</source>
        <translation>已复制到内存，2 MiB 页</translation>
    </message>
    <message>
        <source>mapped from the file: address space</source>
        <translation>从文件映射：地址空间</translation>
    </message>
    <message>
        <source>all of it, until unloaded</source>
        <translation>全部，直到卸载</translation>
    </message>
</context>
<context>
    <name>folio::ui::JobRequest</name>
    <message>
        <source>the request ended with an error</source>
        <translation>请求因错误而结束</translation>
    </message>
</context>
<context>
    <name>folio::ui::KernelPathText</name>
    <message>
        <source>x86-64 %1 kernels, %2 int8 index scoring</source>
        <translation>x86-64 %1 内核，%2 int8 索引评分</translation>
    </message>
    <message>
        <source>x86-64 %1 kernels</source>
        <translation>x86-64 %1 内核</translation>
    </message>
    <message>
        <source>portable scalar kernels (no %1)</source>
        <translation>可移植标量内核（无 %1）</translation>
    </message>
</context>
<context>
    <name>folio::ui::LoadedDocuments</name>
    <message>
        <source>%1: reading was cancelled</source>
        <translation>%1：读取已取消</translation>
    </message>
    <message>
        <source>%1: its scanned pages cannot be read with OCR: %2</source>
        <translation>%1：其扫描页无法用 OCR 识别：%2</translation>
    </message>
    <message>
        <source>OCR cache: %1</source>
        <translation>OCR 缓存：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>folio::ui::MainWindow</name>
    <message>
        <source>Folio</source>
        <translation>Folio</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>尚未加载模型</translation>
    </message>
    <message>
        <source>threads: %1</source>
        <translation>线程：%1</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Some chats could not be read: %1</source>
        <translation>部分对话无法读取：%1</translation>
    </message>
    <message>
        <source>generating…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Documents (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;All files (*)</source>
        <translation>文档 (*.pdf *.png *.jpg *.jpeg *.bmp *.gif);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 has no page %2 (or is not loaded)</source>
        <translation>%1 没有第 %2 页（或尚未加载）</translation>
    </message>
    <message>
        <source>No open PDF has a page %1</source>
        <translation>没有已打开的 PDF 含有第 %1 页</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open document…</source>
        <translation>打开文档(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Folio</source>
        <translation>关于 Folio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <source>Open documents</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <source>Open model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>About Folio</source>
        <translation>关于 Folio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Folio %1&lt;/h3&gt;&lt;p&gt;A local workbench for long documents and charts.&lt;/p&gt;&lt;p&gt;Kernels: %2&lt;/p&gt;&lt;p&gt;License: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Folio %1&lt;/h3&gt;&lt;p&gt;面向长文档和图表的本地工作台。&lt;/p&gt;&lt;p&gt;计算内核：%2&lt;/p&gt;&lt;p&gt;许可证：GPL-3.0-or-later。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A document could not be opened: %1
Check that the file opens in another viewer (or save it again as PDF), then open it with File → Open document….</source>
        <translation>无法打开文档：%1
请确认该文件能在其他查看器中打开（或重新另存为 PDF），然后通过“文件 → 打开文档…”打开。</translation>
    </message>
    <message>
        <source>The document this answer cites (page %1) is no longer in this chat: add it again to follow the citation.</source>
        <translation>此回答引用的文档（第 %1 页）已不在本对话中：重新添加该文档即可跳转到引用处。</translation>
    </message>
</context>
<context>
    <name>folio::ui::MemoryBars</name>
    <message>
        <source>KV cache budget bars</source>
        <translation>KV 缓存预算条</translation>
    </message>
    <message>
        <source>Per cache device, the KV cache and recurrent state against the KV RAM budget; model weights and scratch are not counted.</source>
        <translation>各缓存设备的 KV 缓存和循环状态相对于 KV 内存预算的占用；不计模型权重和临时缓冲区。</translation>
    </message>
    <message>
        <source>KV and state %1</source>
        <translation>KV 与状态 %1</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source> of %1 budget (%L2 %)</source>
        <translation>，预算 %1（%L2 %）</translation>
    </message>
    <message>
        <source> (budget 0)</source>
        <translation>（预算为 0）</translation>
    </message>
    <message>
        <source> (no budget)</source>
        <translation>（无预算）</translation>
    </message>
    <message>
        <source> · %L1 blocks</source>
        <translation> · %L1 个块</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV</source>
        <translation>KV</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>scratch</source>
        <translation>临时缓冲区</translation>
    </message>
    <message>
        <source>%1: KV RAM budget %2</source>
        <translation>%1：KV 内存预算 %2</translation>
    </message>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1：%2 %3</translation>
    </message>
    <message>
        <source>No cache devices reported yet</source>
        <translation>尚未报告缓存设备</translation>
    </message>
</context>
<context>
    <name>folio::ui::ModelController</name>
    <message>
        <source>No model loaded</source>
        <translation>尚未加载模型</translation>
    </message>
    <message>
        <source>loading model %1%</source>
        <translation>正在加载模型 %1%</translation>
    </message>
    <message>
        <source>Remote: %1 at %2</source>
        <translation>远程：%1，位于 %2</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>placement</source>
        <translation>放置位置</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Inspecting %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Loading %1 (%2)…</source>
        <translation>正在加载 %1（%2）…</translation>
    </message>
    <message>
        <source>Loading with %1, KV %2</source>
        <translation>加载参数：%1，KV %2</translation>
    </message>
    <message>
        <source>Cannot open the model: %1
Choose a GGUF model file with File → Open model….</source>
        <translation>无法打开模型：%1
请通过“文件 → 打开模型…”选择 GGUF 模型文件。</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>The vision projector was set aside: %1
The model answers without images. Choose a projector made for this model in File → Settings…, or none.</source>
        <translation>视觉投影器已被搁置：%1
模型将在没有图像的情况下回答。请在“文件 → 设置…”中选择为此模型制作的投影器，或不使用投影器。</translation>
    </message>
    <message>
        <source>Cannot use the server; Folio goes on answering with %2. Check the server's address and API key in File → Settings….
%1</source>
        <translation>无法使用服务器；Folio 将继续用 %2 回答。请在“文件 → 设置…”中检查服务器地址和 API 密钥。
%1</translation>
    </message>
    <message>
        <source>Cannot use the server. Check File → Settings…
%1</source>
        <translation>无法使用服务器。请检查“文件 → 设置…”
%1</translation>
    </message>
    <message>
        <source>Cannot use the server. Check its address and API key in File → Settings… and that the server is running, then connect again.
%1</source>
        <translation>无法使用服务器。请在“文件 → 设置…”中检查其地址和 API 密钥，并确认服务器正在运行，然后重新连接。
%1</translation>
    </message>
    <message>
        <source>The model could not be loaded.
%1</source>
        <translation>无法加载模型。
%1</translation>
    </message>
    <message>
        <source>Cannot load the model. %1</source>
        <translation>无法加载模型。%1</translation>
    </message>
</context>
<context>
    <name>folio::ui::NoKeyring</name>
    <message>
        <source>no keyring (FOLIO_KEYRING=none)</source>
        <translation>无密钥环（FOLIO_KEYRING=none）</translation>
    </message>
</context>
<context>
    <name>folio::ui::NotificationArea</name>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dismiss notification</source>
        <translation>关闭通知</translation>
    </message>
</context>
<context>
    <name>folio::ui::PageCropDialog</name>
    <message>
        <source>Attach a part of page %1 of %2</source>
        <translation>附加 %2 第 %1 页的一部分</translation>
    </message>
    <message>
        <source>Rendering page %1…</source>
        <translation>正在渲染第 %1 页…</translation>
    </message>
    <message>
        <source>Attach to the question</source>
        <translation>附加到问题</translation>
    </message>
    <message>
        <source>Page %1 of %2 could not be rendered: check that the file is still there and is a readable PDF.</source>
        <translation>无法渲染 %2 的第 %1 页：请确认该文件仍然存在且是可读的 PDF。</translation>
    </message>
    <message>
        <source>Drag a rectangle around the chart or table to attach.</source>
        <translation>围绕要附加的图表或表格拖出一个矩形。</translation>
    </message>
</context>
<context>
    <name>folio::ui::PageSelectionView</name>
    <message>
        <source>Page: drag a rectangle to select a part of it</source>
        <translation>页面：拖出矩形以选择其中一部分</translation>
    </message>
</context>
<context>
    <name>folio::ui::Parser</name>
    <message>
        <source>%1, line %2: %3</source>
        <translation>%1，第 %2 行：%3</translation>
    </message>
    <message>
        <source>a template starts with its title: “# Title”</source>
        <translation>模板以标题开头：“# 标题”</translation>
    </message>
    <message>
        <source>a section heading “## …” has no words</source>
        <translation>章节标题“## …”没有文字</translation>
    </message>
    <message>
        <source>a second title; sections start with “## ”</source>
        <translation>出现第二个标题；章节以“## ”开头</translation>
    </message>
    <message>
        <source>text before the first section: put it under a “## Heading”, or in “description:”</source>
        <translation>第一节之前有正文：请放在“## 标题”之下，或写在“description:”中</translation>
    </message>
    <message>
        <source>“id” takes lowercase letters, digits and “-”, such as “equity-note”</source>
        <translation>“id”只能包含小写字母、数字和“-”，例如“equity-note”</translation>
    </message>
    <message>
        <source>unknown language “%1” (en or zh_CN)</source>
        <translation>未知语言“%1”（en 或 zh_CN）</translation>
    </message>
    <message>
        <source>“documents” is how many documents the report reads: 1 to 4</source>
        <translation>“documents”是报告读取的文件数：1 到 4</translation>
    </message>
    <message>
        <source>unknown key “%1” (id, language, documents, description)</source>
        <translation>未知的键“%1”（id、language、documents、description）</translation>
    </message>
    <message>
        <source>unknown form “%1” (prose, bullets, table, quotes or sources)</source>
        <translation>未知的形式“%1”（prose、bullets、table、quotes 或 sources）</translation>
    </message>
    <message>
        <source>“sources” names documents, data or images</source>
        <translation>“sources”应列出 documents、data 或 images</translation>
    </message>
    <message>
        <source>unknown source “%1” (documents, data or images)</source>
        <translation>未知的来源“%1”（documents、data 或 images）</translation>
    </message>
    <message>
        <source>“columns” names at least two columns, separated by “|”</source>
        <translation>“columns”至少列出两列，用“|”分隔</translation>
    </message>
    <message>
        <source>“rows” names the rows, separated by “;”</source>
        <translation>“rows”列出各行，用“;”分隔</translation>
    </message>
    <message>
        <source>“length” is a number of words from 10 to 5000, such as “150 words”</source>
        <translation>“length”是 10 到 5000 的字数，例如“150 words”或“300 字”</translation>
    </message>
    <message>
        <source>unknown key “%1” (form, sources, columns, rows, length)</source>
        <translation>未知的键“%1”（form、sources、columns、rows、length）</translation>
    </message>
    <message>
        <source>the section “%1” has no instruction: write what it should say in the lines after its heading</source>
        <translation>“%1”一节没有说明：请在标题之后的行中写明本节应写的内容</translation>
    </message>
    <message>
        <source>the section “%1” is a table but names no “columns:”</source>
        <translation>“%1”一节是表格，但没有给出“columns:”</translation>
    </message>
    <message>
        <source>the section “%1” has columns or rows but its form is not “table”</source>
        <translation>“%1”一节有列或行，但其形式不是“table”</translation>
    </message>
    <message>
        <source>the file is empty; a template starts with “# Title”</source>
        <translation>文件为空；模板以“# 标题”开头</translation>
    </message>
    <message>
        <source>no sections: each starts with “## Heading”</source>
        <translation>没有章节：每节以“## 标题”开头</translation>
    </message>
</context>
<context>
    <name>folio::ui::QuestionImage</name>
    <message>
        <source>%1 p. %2</source>
        <translation>%1 第 %2 页</translation>
    </message>
    <message>
        <source>%1 p. %2 (part)</source>
        <translation>%1 第 %2 页（部分）</translation>
    </message>
</context>
<context>
    <name>folio::ui::QuestionImagesBar</name>
    <message>
        <source>Images for the next question</source>
        <translation>下一个问题的图像</translation>
    </message>
    <message>
        <source>(missing)</source>
        <translation>（缺失）</translation>
    </message>
    <message>
        <source>Do not send %1 with the question</source>
        <translation>不随问题发送 %1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <source>Extract table</source>
        <translation>提取表格</translation>
    </message>
</context>
<context>
    <name>folio::ui::ReadingPresenter</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <source> · fits</source>
        <translation> · 可放入</translation>
    </message>
    <message>
        <source> · too long: pages will be chosen per question</source>
        <translation> · 过长：每次提问将挑选页面</translation>
    </message>
    <message>
        <source>reading %1%</source>
        <translation>正在读取 %1%</translation>
    </message>
    <message>
        <source> · about %1 left</source>
        <translation> · 约剩 %1</translation>
    </message>
    <message>
        <source>counting its tokens…</source>
        <translation>正在统计词元…</translation>
    </message>
    <message>
        <source>waiting to be read</source>
        <translation>等待读取</translation>
    </message>
    <message>
        <source>Reading documents in the background…</source>
        <translation>正在后台读取文档…</translation>
    </message>
    <message>
        <source>Reading %1 in the background: %2</source>
        <translation>正在后台读取 %1：%2</translation>
    </message>
    <message>
        <source>read at %1 tokens/s · ready for questions</source>
        <translation>读取速度 %1 词元/秒 · 可以提问</translation>
    </message>
    <message>
        <source>read · ready for questions</source>
        <translation>已读取 · 可以提问</translation>
    </message>
    <message>
        <source>read · loaded from the document cache</source>
        <translation>已读取 · 来自文档缓存</translation>
    </message>
    <message>
        <source>Documents loaded from the cache (%1 tokens)</source>
        <translation>已从缓存加载文档（%1 个词元）</translation>
    </message>
    <message>
        <source>Documents read (%1 tokens in %2)</source>
        <translation>文档已读取（%2 内读取 %1 个词元）</translation>
    </message>
    <message>
        <source>resuming at %1%</source>
        <translation>从 %1% 处继续</translation>
    </message>
    <message>
        <source>Reading %1 in the background: resuming at %2%</source>
        <translation>正在后台阅读 %1：从 %2% 处继续</translation>
    </message>
</context>
<context>
    <name>folio::ui::ReportsAction</name>
    <message>
        <source>&amp;Reports…</source>
        <translation>报告(&amp;R)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
</context>
<context>
    <name>folio::ui::ReportsDialog</name>
    <message>
        <source>Reports</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Template file…</source>
        <translation>模板文件…</translation>
    </message>
    <message>
        <source>&amp;Make report</source>
        <translation>生成报告(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Make section &amp;again</source>
        <translation>重新生成本节(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Edit section…</source>
        <translation>编辑本节(&amp;E)…</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Template:</source>
        <translation>模板(&amp;T)：</translation>
    </message>
    <message>
        <source>Edit section</source>
        <translation>编辑本节</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;OpenDocument text (*.odt);;HTML (*.html);;Markdown (*.md)</source>
        <translation>PDF (*.pdf);;OpenDocument 文本 (*.odt);;HTML (*.html);;Markdown (*.md)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>The report is made: %1 sections.</source>
        <translation>报告已生成：共 %1 节。</translation>
    </message>
    <message>
        <source>Open template</source>
        <translation>打开模板</translation>
    </message>
    <message>
        <source>Report templates (*.md)</source>
        <translation>报告模板 (*.md)</translation>
    </message>
    <message numerus="yes">
        <source>“%1” reads %n document(s); open them in this chat first.</source>
        <translation>
            <numerusform>“%1”需要读取 %n 个文件；请先在本对话中打开它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Section saved as you wrote it.</source>
        <translation>已按您的编辑保存本节。</translation>
    </message>
    <message>
        <source>figures not found</source>
        <translation>有数字未找到</translation>
    </message>
    <message>
        <source>Reads the chat's documents.</source>
        <translation>读取本对话的文件。</translation>
    </message>
    <message>
        <source>Reads: %1</source>
        <translation>读取：%1</translation>
    </message>
    <message>
        <source>Not made yet.</source>
        <translation>尚未生成。</translation>
    </message>
    <message>
        <source>This section failed: %1</source>
        <translation>本节失败：%1</translation>
    </message>
    <message>
        <source>&amp;Resume report</source>
        <translation>继续生成报告(&amp;R)</translation>
    </message>
</context>
<context>
    <name>folio::ui::SendKeys</name>
    <message>
        <source>Ask about the open documents… (Enter to send, Shift+Enter for a new line, Esc to stop)</source>
        <translation>就打开的文档提问…（Enter 发送，Shift+Enter 换行，Esc 停止）</translation>
    </message>
    <message>
        <source>Ask about the open documents… (Ctrl+Enter to send, Esc to stop)</source>
        <translation>就打开的文档提问…（Ctrl+Enter 发送，Esc 停止）</translation>
    </message>
</context>
<context>
    <name>folio::ui::ServerPanel</name>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Server and model</source>
        <translation>服务器和模型</translation>
    </message>
    <message>
        <source>No answer yet.</source>
        <translation>尚无回答。</translation>
    </message>
    <message>
        <source>Server status</source>
        <translation>服务器状态</translation>
    </message>
    <message>
        <source>The server does not report memory or cache figures: the memory bars and the KV cache view apply to the embedded engine only. TTFT and t/s below are measured by Folio (network included).</source>
        <translation>服务器不报告内存或缓存数据：内存条和 KV 缓存视图仅适用于内置引擎。下面的首词元时间和词元/秒由 Folio 测量（含网络）。</translation>
    </message>
    <message>
        <source>What the server reports</source>
        <translation>服务器报告的内容</translation>
    </message>
    <message>
        <source>Remote answers: TTFT and decode rate</source>
        <translation>远程回答：首词元时间和解码速度</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>首词元</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Prompt (cached)</source>
        <translation>提示（已缓存）</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>%1
model %2</source>
        <translation>%1
模型 %2</translation>
    </message>
    <message>
        <source> · context %L1 tokens</source>
        <translation> · 上下文 %L1 个词元</translation>
    </message>
    <message>
        <source>requests running: %1</source>
        <translation>正在运行的请求：%1</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>
last answer: %L1 prompt tokens (%L2 cached by the server) · %L3 generated · TTFT %4 ms · %5 t/s · %6</source>
        <translation>
上次回答：%L1 个提示词元（服务器缓存 %L2 个）· 生成 %L3 个 · 首词元 %4 毫秒 · %5 词元/秒 · %6</translation>
    </message>
    <message>
        <source>
The server has not reported token usage.</source>
        <translation>
服务器未报告词元用量。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>%1 t/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>%L1 (%L2)</source>
        <translation>%L1（%L2）</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
</context>
<context>
    <name>folio::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Document caches</source>
        <translation>文档缓存</translation>
    </message>
    <message>
        <source>Enter sends the question (Shift+Enter starts a new line)</source>
        <translation>按 Enter 发送问题（Shift+Enter 换行）</translation>
    </message>
    <message>
        <source>When off, Enter starts a new line and Ctrl+Enter sends.</source>
        <translation>关闭时，Enter 换行，Ctrl+Enter 发送。</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Embedded engine (a GGUF model on this machine)</source>
        <translation>内置引擎（本机上的 GGUF 模型）</translation>
    </message>
    <message>
        <source>OpenAI-compatible server (vLLM, SGLang, folio-cli serve)</source>
        <translation>OpenAI 兼容服务器（vLLM、SGLang、folio-cli serve）</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>List models</source>
        <translation>列出模型</translation>
    </message>
    <message>
        <source>Embedded engine</source>
        <translation>内置引擎</translation>
    </message>
    <message>
        <source>Model (GGUF)</source>
        <translation>模型（GGUF）</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>GGUF 模型 (*.gguf)</translation>
    </message>
    <message>
        <source>Vision projector (mmproj)</source>
        <translation>视觉投影器（mmproj）</translation>
    </message>
    <message>
        <source>GGUF files (*.gguf)</source>
        <translation>GGUF 文件 (*.gguf)</translation>
    </message>
    <message>
        <source>all cores (%1)</source>
        <translation>全部核心（%1）</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>for long documents</source>
        <translation>适合长文档</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>from available memory</source>
        <translation>根据可用内存</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>KV cache RAM budget</source>
        <translation>KV 缓存内存预算</translation>
    </message>
    <message>
        <source>Move cold KV blocks to disk</source>
        <translation>将不常用的 KV 块移到磁盘</translation>
    </message>
    <message>
        <source>Offload folder</source>
        <translation>卸载文件夹</translation>
    </message>
    <message>
        <source>KV storage type</source>
        <translation>KV 存储类型</translation>
    </message>
    <message>
        <source>Speculative decoding (prompt lookup)</source>
        <translation>推测解码（提示查找）</translation>
    </message>
    <message>
        <source>Changes apply when a model is loaded (OK reloads the model, or connects to the server).</source>
        <translation>更改在加载模型时生效（点击“确定”会重新加载模型或连接服务器）。</translation>
    </message>
    <message>
        <source>Asking %1 for its models…</source>
        <translation>正在向 %1 查询模型…</translation>
    </message>
    <message>
        <source>Cannot list the models: %1</source>
        <translation>无法列出模型：%1</translation>
    </message>
    <message>
        <source>The server serves one model.</source>
        <translation>服务器提供 1 个模型。</translation>
    </message>
    <message>
        <source>The server serves %1 models.</source>
        <translation>服务器提供 %1 个模型。</translation>
    </message>
    <message>
        <source>With this model: %1, KV %2</source>
        <translation>使用此模型：%1，KV %2</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <source>The key is kept in the system keyring.</source>
        <translation>密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>A key entered here is kept in the system keyring where one runs.</source>
        <translation>在此输入的密钥会保存在系统密钥环中（如有运行的密钥环）。</translation>
    </message>
    <message>
        <source>Map from the file</source>
        <translation>从文件映射</translation>
    </message>
    <message>
        <source>Copy into RAM when it fits</source>
        <translation>内存足够时复制到内存</translation>
    </message>
    <message>
        <source>Always copy into RAM</source>
        <translation>始终复制到内存</translation>
    </message>
    <message>
        <source>Mapped, the system may drop pages of the model under memory pressure and read them from disk again. A copy in RAM (2 MiB pages) stays in memory and is safe from the file changing, but its memory stays taken until the model is unloaded; "when it fits" copies when half the available memory holds the file.</source>
        <translation>映射时，系统在内存紧张时可能丢弃模型的页面，并从磁盘重新读取。复制到内存（2 MiB 页）的副本常驻内存，且不受文件变化的影响，但其占用的内存会保持到模型卸载为止；“内存足够时”表示可用内存的一半能容纳该文件时才复制。</translation>
    </message>
    <message>
        <source>Model weights</source>
        <translation>模型权重</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
</context>
<context>
    <name>folio::ui::SummarizeAction</name>
    <message>
        <source>Export s&amp;ummary…</source>
        <translation>导出摘要(&amp;U)…</translation>
    </message>
    <message>
        <source>Export summary</source>
        <translation>导出摘要</translation>
    </message>
    <message>
        <source>Summari&amp;ze document</source>
        <translation>摘要文档(&amp;Z)</translation>
    </message>
    <message>
        <source>This chat has no summary: make one with File → Summarize document.</source>
        <translation>此对话没有摘要：请通过“文件 → 摘要文档”生成。</translation>
    </message>
</context>
<context>
    <name>folio::ui::SummaryRunner</name>
    <message>
        <source>Open a PDF to summarize it (File → Open document…)</source>
        <translation>请先打开要摘要的 PDF（文件 → 打开文档…）</translation>
    </message>
    <message>
        <source>Summarize document</source>
        <translation>摘要文档</translation>
    </message>
    <message>
        <source>Document:</source>
        <translation>文档：</translation>
    </message>
    <message>
        <source>Summarizing “%1” (%2 pages)…</source>
        <translation>正在摘要“%1”（%2 页）…</translation>
    </message>
    <message>
        <source>Summarizing “%1”: %2</source>
        <translation>正在摘要“%1”：%2</translation>
    </message>
    <message>
        <source>Summary: %1</source>
        <translation>摘要：%1</translation>
    </message>
    <message>
        <source>Summarized “%1” in %2 parts and %3 stages (%4 requests, %5 s).</source>
        <translation>已摘要“%1”：%2 个部分，%3 个阶段（%4 个请求，%5 秒）。</translation>
    </message>
    <message>
        <source># Summary: %1

</source>
        <translation># 摘要：%1

</translation>
    </message>
    <message>
        <source>Summary ready</source>
        <translation>摘要已完成</translation>
    </message>
    <message>
        <source>Summary of “%1” stopped (%2).</source>
        <translation>“%1”的摘要已停止（%2）。</translation>
    </message>
    <message>
        <source>The summary of “%1” failed: %2</source>
        <translation>“%1”的摘要失败：%2</translation>
    </message>
    <message>
        <source>Summary stopped</source>
        <translation>摘要已停止</translation>
    </message>
    <message>
        <source>Summary failed</source>
        <translation>摘要失败</translation>
    </message>
    <message>
        <source>Wait for this chat's answer to finish, or stop it, then summarize (or summarize in another chat)</source>
        <translation>请等待本对话的回答完成或将其停止后再生成摘要（或在另一个对话中生成摘要）</translation>
    </message>
</context>
<context>
    <name>folio::ui::SystemKeyring</name>
    <message>
        <source>the keyring did not answer</source>
        <translation>密钥环没有响应</translation>
    </message>
</context>
<context>
    <name>folio::ui::TableDialog</name>
    <message>
        <source>Extracted table</source>
        <translation>提取的表格</translation>
    </message>
    <message>
        <source>The model's answer</source>
        <translation>模型的回答</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the table as tab-separated values (pastes into a spreadsheet)</source>
        <translation>以制表符分隔的形式复制表格（可粘贴到电子表格）</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>导出 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Export &amp;Markdown…</source>
        <translation>导出 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Reading the table in %1…</source>
        <translation>正在读取 %1 中的表格…</translation>
    </message>
    <message>
        <source>%1 rows × %2 columns read from %3.</source>
        <translation>已从 %3 读取 %1 行 × %2 列。</translation>
    </message>
    <message>
        <source>There is no table to export.</source>
        <translation>没有可导出的表格。</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>Export Markdown</source>
        <translation>导出 Markdown</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write the table: %1</source>
        <translation>无法写入表格：%1</translation>
    </message>
    <message>
        <source>Saved the table to %1</source>
        <translation>表格已保存到 %1</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>重试(&amp;R)</translation>
    </message>
    <message>
        <source>Ask the model to read the table again</source>
        <translation>请模型重新读取表格</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>详情：%1</translation>
    </message>
    <message>
        <source>Each number of the table looked for on page %1 of %2 (a row's own page when the table names one); double-click a cell to open its page</source>
        <translation>表格中的每个数字都在 %2 的第 %1 页上查找（表格为某行注明页码时按该页）；双击单元格可打开其页面</translation>
    </message>
</context>
<context>
    <name>folio::ui::TableExtractor</name>
    <message>
        <source>The model could not answer: %1</source>
        <translation>模型无法回答：%1</translation>
    </message>
    <message>
        <source>Table extraction was stopped.</source>
        <translation>表格提取已停止。</translation>
    </message>
</context>
<context>
    <name>folio::ui::ThroughputChart</name>
    <message>
        <source>Throughput chart</source>
        <translation>吞吐量图表</translation>
    </message>
    <message>
        <source>Prefill (right axis) and decode (left axis) tokens per second over the last two minutes; the table view lists the same figures.</source>
        <translation>最近两分钟内每秒预填充（右轴）和解码（左轴）的词元数；表格视图列出相同的数据。</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>Prefill t/s</source>
        <translation>预填充 词元/秒</translation>
    </message>
    <message>
        <source>Decode t/s</source>
        <translation>解码 词元/秒</translation>
    </message>
    <message>
        <source>%1 s · prefill %L2 t/s</source>
        <translation>%1 秒 · 预填充 %L2 词元/秒</translation>
    </message>
    <message>
        <source>%1 s · decode %L2 t/s</source>
        <translation>%1 秒 · 解码 %L2 词元/秒</translation>
    </message>
    <message>
        <source>prefill t/s (right)</source>
        <translation>预填充 词元/秒（右）</translation>
    </message>
    <message>
        <source>decode t/s (left)</source>
        <translation>解码 词元/秒（左）</translation>
    </message>
</context>
<context>
    <name>folio::ui::TranscriptView</name>
    <message>
        <source>&lt;h3&gt;Ask about your documents&lt;/h3&gt;&lt;p&gt;Open a long report and chart screenshots on the left. Folio puts whole documents in the model's context, with page markers so answers can cite pages like [p. 12]; click a citation to open the page.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;就你的文档提问&lt;/h3&gt;&lt;p&gt;在左侧打开长篇报告和图表截图。Folio 会把整份文档连同页码标记放入模型的上下文，因此回答可以像 [p. 12] 这样引用页面；点击引用即可打开该页。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>——— Earlier messages above were not in the prompt of “%1” ———</source>
        <translation>——— 以上较早的消息未包含在“%1”的提示中 ———</translation>
    </message>
    <message>
        <source>[answer interrupted: %1]</source>
        <translation>[回答中断：%1]</translation>
    </message>
    <message>
        <source>copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>edit and resend</source>
        <translation>编辑并重发</translation>
    </message>
    <message>
        <source>regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>%1 (image missing: %2)</source>
        <translation>%1（图像缺失：%2）</translation>
    </message>
    <message>
        <source>[no answer: %1 — fix the cause, then click “regenerate” to ask again]</source>
        <translation>[没有回答：%1 — 请排除原因，然后点击“重新生成”再次提问]</translation>
    </message>
    <message>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <source>Cite page %1 instead</source>
        <translation>改为引用第 %1 页</translation>
    </message>
</context>
<context>
    <name>folio::ui::UserError</name>
    <message>
        <source>No error was reported.</source>
        <translation>没有报告错误。</translation>
    </message>
    <message>
        <source>Folio was given a setting or input it cannot use. Check the settings and the files you chose, then try again.</source>
        <translation>Folio 收到了无法使用的设置或输入。请检查设置和所选文件，然后重试。</translation>
    </message>
    <message>
        <source>Something Folio needs was not found in the file or on disk. Check the file, or choose another one.</source>
        <translation>在文件或磁盘中找不到 Folio 需要的内容。请检查该文件，或选择其他文件。</translation>
    </message>
    <message>
        <source>Reading or writing a file failed. Check the disk and the file, then try again.</source>
        <translation>读取或写入文件失败。请检查磁盘和文件，然后重试。</translation>
    </message>
    <message>
        <source>The file is damaged or is not in the expected format. Choose another file, or copy this one again.</source>
        <translation>文件已损坏或格式不符。请选择其他文件，或重新复制此文件。</translation>
    </message>
    <message>
        <source>Folio does not support this file or feature. Choose another model file, or update Folio.</source>
        <translation>Folio 不支持此文件或功能。请选择其他模型文件，或更新 Folio。</translation>
    </message>
    <message>
        <source>Folio ran into an internal error. Please report it with the details below; trying again may work.</source>
        <translation>Folio 遇到内部错误。请附上以下详情报告此问题；重试可能有效。</translation>
    </message>
    <message>
        <source>Something went wrong. Try again; if it keeps happening, report it with the details below.</source>
        <translation>出现问题。请重试；如果反复出现，请附上以下详情报告。</translation>
    </message>
    <message>
        <source>A file Folio needs is missing or cannot be opened. Check that it still exists where it was, or choose it again.</source>
        <translation>Folio 需要的文件缺失或无法打开。请确认它仍在原处，或重新选择。</translation>
    </message>
    <message>
        <source>Folio is not allowed to read or write a file it needs. Check the file's and its folder's permissions, or choose another location.</source>
        <translation>Folio 无权读取或写入所需的文件。请检查该文件及其文件夹的权限，或选择其他位置。</translation>
    </message>
    <message>
        <source>The file is cut short: it was not copied or downloaded completely. Copy or download it again.</source>
        <translation>文件不完整：未完整复制或下载。请重新复制或下载。</translation>
    </message>
    <message>
        <source>The model file stores some weights in a type Folio cannot compute. Choose a file quantized with another type (for example Q4_K_M or Q8_0).</source>
        <translation>模型文件中有些权重的类型 Folio 无法计算。请选择以其他类型量化的文件（例如 Q4_K_M 或 Q8_0）。</translation>
    </message>
    <message>
        <source>There is not enough memory. Lower the context length or the RAM budget in File → Settings…, set a disk folder for the cache, or close other programs.</source>
        <translation>内存不足。请在“文件 → 设置…”中降低上下文长度或内存预算，为缓存设置磁盘文件夹，或关闭其他程序。</translation>
    </message>
    <message>
        <source>The disk is full. Free some space, or choose a cache folder on another disk in File → Settings…, then try again.</source>
        <translation>磁盘已满。请释放空间，或在“文件 → 设置…”中选择其他磁盘上的缓存文件夹，然后重试。</translation>
    </message>
    <message>
        <source>The text does not fit the model's context. Raise the context length in File → Settings…, or ask about fewer pages or documents.</source>
        <translation>文本超出模型的上下文。请在“文件 → 设置…”中提高上下文长度，或就更少的页面或文件提问。</translation>
    </message>
    <message>
        <source>The work was stopped before it finished.</source>
        <translation>工作在完成前已停止。</translation>
    </message>
    <message>
        <source>The server cannot be reached. Check that it is running and its address in File → Settings…, then try again.</source>
        <translation>无法连接服务器。请确认其正在运行，并在“文件 → 设置…”中检查其地址，然后重试。</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>详情：%1</translation>
    </message>
</context>
</TS>