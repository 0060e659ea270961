package sandbox

import "github.com/chairside/chairside"

// The sandbox's Spanish: our own translations of the English texts next to
// them (documents.go, pages.go, quiz.go), with the same keys, placeholders
// and links. Register: usted, neutral Latin-American Spanish
// (docs/languages.md). Lender and product names stay as they are; "SAMPLE"
// becomes "MUESTRA", so a Spanish sample is as plainly marked.

// documentTextsES are documentTexts in Spanish.
var documentTextsES = map[string]docText{
	"disclosures": {"Divulgaciones importantes", `MUESTRA - Divulgaciones de {{financing}}

Revisar sus opciones con {{name}} no afecta su puntaje de crédito. Si acepta una oferta y presenta la solicitud, {{name}} pedirá su informe de crédito completo, lo que puede afectar su puntaje de crédito.

Las tasas y condiciones dependen de su historial de crédito y de sus ingresos. Los planes que se muestran son ofertas por el monto indicado y vencen en la fecha indicada.

Puede cancelar dentro de los 5 días posteriores a aceptar una oferta si llama a {{name}}.`},
	"agreement": {"Contrato de crédito", `MUESTRA - Contrato de {{financing}}

Usted se compromete a pagarle a {{name}} el monto financiado y los intereses que correspondan según el plan que eligió, en pagos mensuales en las fechas de vencimiento que indica su estado de cuenta.

Planes con intereses diferidos: si el saldo promocional no se paga por completo antes de que termine el período promocional, se cobran intereses sobre todo el saldo promocional desde la fecha de compra.

Los pagos atrasados pueden tener un cargo y pueden reportarse a las agencias de crédito. Puede pagar por adelantado en cualquier momento sin penalidad.`},
	"terms": {"Términos y condiciones", `MUESTRA - Términos de {{financing}}

Al continuar, usted confirma que la información que dio es verdadera y completa, y autoriza a {{name}} a verificarla y a obtener su informe de crédito.

{{name}} puede comunicarse con usted por correo electrónico, mensaje de texto o teléfono sobre esta solicitud. Es posible que se apliquen cargos por mensajes y datos.`},
	"esign": {"Consentimiento para firmas y documentos electrónicos", `MUESTRA - Documentos electrónicos de {{financing}}

Usted acepta recibir su contrato, las divulgaciones y los avisos en forma electrónica, y firmarlos electrónicamente. Una firma electrónica tiene el mismo efecto que una firma en papel.

Puede pedirle a {{name}} una copia en papel sin costo y puede retirar este consentimiento en cualquier momento si se comunica con {{name}}. Para ver y conservar estos documentos necesita un dispositivo con un navegador web y una forma de guardarlos o imprimirlos.`},
	"loan_agreement": {"Contrato de préstamo", `MUESTRA - Contrato de préstamo de {{financing}}

Usted se compromete a pagarle a {{name}} el monto financiado, con intereses a la tasa de porcentaje anual (APR) fija del plan que eligió (0 % en un plan sin intereses), en pagos mensuales iguales en las fechas de vencimiento de su calendario de pagos. La tasa y el pago no cambian durante todo el préstamo.

Si su plan tiene un pago inicial, este se paga antes de que empiece el préstamo y no forma parte del monto financiado.

Los pagos atrasados pueden tener un cargo y pueden reportarse a las agencias de crédito. Puede pagar por adelantado en cualquier momento sin penalidad, y pagar antes reduce los intereses que paga.`},
	"lease_agreement": {"Contrato de arrendamiento", `MUESTRA - Contrato de arrendamiento de {{financing}}

{{name}} le compra el tratamiento a su consultorio dental y se lo arrienda a usted. Esto es un arrendamiento, no un préstamo ni un crédito: no tiene tasa de interés.

Usted hace los pagos del arrendamiento del plan que eligió desde su cuenta de cheques en sus días de pago. Cuando haya hecho todos los pagos, el tratamiento será suyo; los pagos suman más que el precio de contado, y lo que cuestan por encima de él es el costo de propiedad.

Opción de compra anticipada: pague el precio de contado dentro de 101 días y el tratamiento será suyo, sin nada más que pagar. Puede terminar el arrendamiento en cualquier momento si se comunica con {{name}}; los pagos ya hechos no se reembolsan.`},
	"california_notice": {"Aviso para pacientes en California", `MUESTRA - Cómo pagar su tratamiento dental con {{financing}}

{{financing}} es un crédito de {{name}} que usted usa para pagar su tratamiento dental. Es un préstamo que usted le paga a {{name}}, no un plan de pagos con su consultorio dental.

Su consultorio dental no puede cobrarle a {{name}} un tratamiento que usted todavía no ha recibido.

Si un tratamiento pagado con {{financing}} se cancela o no se realiza, su consultorio dental le devuelve ese dinero a {{name}} dentro de 15 días hábiles, y su saldo baja en esa misma cantidad.`},
	"cardholder_agreement": {"Contrato del titular de la tarjeta", `MUESTRA - Contrato del titular de {{financing}}

Este contrato rige su cuenta de {{financing}} una vez que se abra: su límite de crédito, la tasa de interés de las compras, su pago mínimo mensual y los cargos que pueden aplicarse.

Usted se compromete a pagar al menos el pago mínimo que aparece en cada estado de cuenta mensual antes de su fecha de vencimiento. Se cobran intereses sobre los saldos que no se pagan por completo, excepto durante un período promocional.

Puede cerrar su cuenta en cualquier momento si se comunica con {{name}}. {{name}} le avisará con anticipación de cualquier cambio en estos términos.`},
	"lease_disclosures": {"Divulgaciones importantes del arrendamiento", `MUESTRA - Divulgaciones de {{financing}}

{{financing}} es un arrendamiento, no un crédito. No se necesita crédito: {{name}} no obtiene su informe de crédito de las agencias de crédito, ni ahora ni cuando firme, y revisar sus opciones no afecta su puntaje de crédito.

Para decidir, {{name}} verifica su identidad, sus ingresos y su cuenta de cheques. Los arrendamientos que se muestran son ofertas por el precio de contado indicado y vencen en la fecha indicada.`},
	"lease_prequalification": {"Términos de las opciones de arrendamiento", `MUESTRA - Cómo ver sus opciones de arrendamiento con {{name}}

Para ver sus opciones, {{name}} verifica su identidad, sus ingresos y su cuenta de cheques. No obtiene su informe de crédito, y su puntaje de crédito no se ve afectado.

Ver sus opciones no es una promesa de arrendamiento; {{name}} podría pedirle más información antes de que firme.`},
	"prequalification": {"Términos de la precalificación", `MUESTRA - Precalificación con {{name}}

Para saber si usted precalifica, {{name}} hace una consulta de crédito suave, que no afecta su puntaje de crédito.

La precalificación no garantiza que se le otorgue crédito. Si presenta la solicitud, {{name}} revisará su informe de crédito completo y podría rechazarla u ofrecerle condiciones diferentes.`},
}

// pageTextsES are pageTexts in Spanish, with the same links.
var pageTextsES = map[string]pageText{
	chairside.DocKindArbitration: {"Arbitraje", `<p><strong>MUESTRA</strong> — Cómo resolver un desacuerdo con {{name}}</p>
<p>Si usted y {{name}} no están de acuerdo sobre su cuenta de {{financing}} y no pueden resolverlo hablando, cualquiera de los dos puede pedir que lo decida un árbitro neutral en lugar de un tribunal. Las reglas completas están en la <a href="/#/docs/arbitrationProvision">cláusula de arbitraje</a>.</p>
<p>Puede rechazar el arbitraje si le escribe a {{name}} dentro de los 60 días posteriores a la apertura de su cuenta.</p>`},
	chairside.DocKindArbitrationProvision: {"Cláusula de arbitraje", `<p><strong>MUESTRA</strong> — Cláusula de arbitraje de {{financing}}</p>
<p>Un reclamo sobre su cuenta lo decide un solo árbitro, no un juez ni un jurado, según las reglas de una organización nacional de arbitraje. Cada persona presenta su propio reclamo, no como parte de una demanda colectiva.</p>
<p>{{name}} paga los costos del arbitraje que pasen de los primeros $250, que paga usted. Los reclamos pequeños se pueden seguir presentando ante un tribunal de reclamos menores.</p>
<p>Puede rechazar esta cláusula dentro de los 60 días posteriores a la apertura de su cuenta si le escribe a {{name}}; rechazarla no cambia nada más de su cuenta.</p>`},
	chairside.DocKindPrequalificationTerms: {"Términos y condiciones de la precalificación", `<p><strong>MUESTRA</strong> — Cómo revisar sus opciones con {{name}}</p>
<p>Al pedir la precalificación, usted permite que {{name}} haga una consulta de crédito suave, que no afecta su puntaje de crédito. Cómo usa {{name}} la información que usted le da se explica en su <a href="/#/docs/privacyNotice">aviso de privacidad</a>; qué es un informe de crédito y cómo ver el suyo se explica en <a href="/#/docs/creditReport">su informe de crédito</a>.</p>
<p>Precalificar no es una oferta de crédito. Las tasas que {{name}} ofrece hoy están en su <a href="{{rates}}">hoja de tasas (PDF)</a>.</p>`},
	chairside.DocKindCreditReport: {"Su informe de crédito", `<p><strong>MUESTRA</strong> — Los informes de crédito y {{name}}</p>
<p>Un informe de crédito es el registro que lleva una agencia de crédito de sus préstamos, tarjetas y pagos. {{name}} lo revisa para decidir sobre su solicitud: con una consulta suave para la precalificación y con una consulta rigurosa cuando usted presenta la solicitud.</p>
<p>Puede obtener una copia gratuita de su informe de cada una de las tres agencias de crédito nacionales una vez por semana, y puede disputar cualquier dato equivocado con la agencia que lo reportó.</p>`},
	chairside.DocKindParticipatingCreditors: {"Acreedores participantes", `<p><strong>MUESTRA</strong> — Quién puede prestarle a través de {{financing}}</p>
<p>{{creditors}}</p>
<p>Cada acreedor decide por su cuenta y le envía su propio aviso si no puede ofrecerle crédito. Consulte el <a href="/#/docs/privacyNotice">aviso de privacidad</a> para saber qué información se comparte con ellos.</p>`},
	chairside.DocKindElectronicDisclosures: {"Divulgaciones y firmas electrónicas", `<p><strong>MUESTRA</strong> — Cómo recibir en forma electrónica los documentos de {{financing}}</p>
<p>Usted acepta que {{name}} le entregue divulgaciones, contratos y avisos en la pantalla y por correo electrónico, y que usted los firme electrónicamente; una firma hecha así vale lo mismo que una firma en papel.</p>
<p>Puede pedirle a {{name}} copias en papel sin costo y retirar este consentimiento en cualquier momento. Necesita un dispositivo con un navegador web actualizado y una forma de guardar o imprimir. Consulte también el <a href="/#/docs/privacyNotice">aviso de privacidad</a>.</p>`},
	chairside.DocKindAccountTerms: {"Términos de la cuenta", `<p><strong>MUESTRA</strong> — Términos de su cuenta de {{financing}}</p>
<p>Su límite de crédito es lo máximo que puede deber en la cuenta a la vez; la parte que no ha usado es su crédito disponible. A las compras se les aplican las tasas de la <a href="{{rates}}">hoja de tasas (PDF)</a> de {{name}}, excepto durante un período promocional.</p>
<p>Cuando pide un límite más alto, {{name}} revisa su ingreso anual y puede revisar su informe de crédito. Un límite más alto no cambia sus tasas ni la fecha de vencimiento de su pago.</p>`},
}

// quizPoolES is quizPool in Spanish. Names of streets, lenders and
// employers are names and stay as they are.
var quizPoolES = []quizQuestion{
	{"¿En cuál de estas calles ha vivido?", [4]string{"Maple Avenue", "Harbor Road", "Cedar Lane", "Ninguna de estas"}},
	{"¿Cuál de estos prestamistas le ha dado un préstamo para auto?", [4]string{"Lakeside Auto Credit", "Summit Motor Finance", "Prairie Auto Bank", "Ninguno de estos"}},
	{"¿En qué condado ha tenido un número de teléfono?", [4]string{"Condado de Orange", "Condado de Cook", "Condado de Travis", "Ninguno de estos"}},
	{"¿En qué rango está su pago mensual de renta o hipoteca?", [4]string{"Menos de $1,000", "De $1,000 a $1,999", "$2,000 o más", "No pago renta ni hipoteca"}},
	{"¿Para cuál de estos empleadores ha trabajado?", [4]string{"Northwind Traders", "Contoso Health", "Fabrikam Foods", "Ninguno de estos"}},
}
