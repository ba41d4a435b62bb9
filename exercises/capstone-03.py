# Lesson capstone-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/capstone-03.py (or tpu, or gpu); it ends PASS: capstone-03

# A training run that survives a crash, bit for bit: capstone-02's Transformer (one block of width 16) on a
# 2 x 4 mesh, with an orbax checkpoint every 2 steps holding the parameters, AdamW's state, the data position
# and the noise key. The job dies before step 5; a restart from the newest checkpoint ends with the bits of
# the run that never stopped.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")   # 8 virtual CPU devices, also where the runtime has one chip

import base64
import bz2
import dataclasses
import hashlib
import math
import pathlib
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import optax
import orbax.checkpoint as ocp
from flax import nnx
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

if jax.device_count() < 8:
    raise RuntimeError(f"this example needs 8 devices, found {jax.device_count()}: run it in a fresh "
                       "Python process with JAX_NUM_CPU_DEVICES=8 (the CPU backend)")

# The lesson's text, the opening of Coriolanus (the first 754 lines of char-rnn's tinyshakespeare),
# bz2-compressed and base85-encoded so that this program needs no file and no download.
TEXT_BZ2_B85 = (
    "LRx4!F+o`-Q(5)9*SY`+&0l~35MYM@7{B-5pg;fr@L(qV_ivljQ4o|+gpiR)ff68*@gEP7C&TWIrrMXj4tF(qidqVLu;)(z0"
    "dXal-NUb;-)E*E&}=k2?sp^IF1GKl9l$x$+i)72+XvWsFROTIpny#PgwZLdqf&WKC>nZz!&Ar;L<oW<Jx@udfEs832B+vqlx"
    "muKk5Fw!fChjbpwJ04krPRg87Y+BDU@i*>K=&51`w$NMA}S^GzNeMMwv7KBti%YG-;v~{ZsW5Xwj(JfYVJc6RT*Ec}~qk6%`"
    "a~G(4q4OkJjBf-4a=xp22`Fvg&<U{ccJrYu@xc3C)&@9X2j8U3sQzh^$5p1++NHgTW%{w*=Zy^b-0h~1(8Sx2rjhYUt!Aa)Z"
    "*8`=_Cr;mT>t?cOLm6NmGQ~D-vzC%B*NnLtQ%)>>TJ@+P2(j@>)JULg2X;T6kFO7fYiyX)9$sbqOG;Wh%RjZpBu;3xRp+UWH"
    "oh*<Tj}inJ`)6{PwA*2h$au-^`8&{>&Nafbns<1knbu<<1Q!AdN<6X!59NYnJ`*wYR`{3nT9zbskH)h%Q|%0b3!s4-VTM2Mn"
    "+TJC!QwqpHk;RVpt0-M#I}lt$i%I$^3>8w^>4*4yNWzYM;_LXZ3KTgdYM}=_kUiu4Db%7ds%5;RXFjkDIp=nUXdhJf`~x~3K"
    "Wp*O8+^YW|SaR{Wl!_*v%6NbWtiE9*BIb3VPabe<(o{1=Uc!8Rz_2Q){nhJyv68fEM1)c2hlxz$Uko>OmkV>{&rB2vG5Uw9X"
    "Jy=BsiEOA)qlXy0AEm^wXG=4x9j1nwO74-+MQZr6XCUW!jselr8csYmN9O$v^0Z6aq{dT`O&^>7cNhuL__eo|Uw*pR<<r}%^"
    "<7eSW^#V4%O&*v!oLkESI9(P`-dP{zrS05#O6$o^}!>2qXT(c{+(qgSHTMe(B^um=8J+&T~pfDj;W=(jrM(0Bv=w%qGp;p92"
    "*-DS7YtZOL1m%1f7bx^pC+fXL&X_S~XK=Jct8=4?NqN!g@)ULpbKex(NAk%@;wUjhs>Lw_0@5gUlPL~zqU}!OLxqE7y_69M6"
    "#Vh&?8rGmd27~qGl#w_wGbbX(}m{$e&gi7ed&o;LZffxgsh`WmJHB2A)yMYXd}YIV1ucesq<Q`n|vjHJq}wlkldELW?Hn^`r"
    ")DDa}^%jmVGSmKW@^Z?f8Bi&8@p^Eln^ZIlPMcntbeOtLt0p?}CZq(`{-Vqvu1utWaNPTzqpzC6J|QADgD)^FhxN7}KcV+io"
    "5?*U2&%wF4bm(zi4*8-~jfqzPM60CA<P(?<}f8`|mI+-3DMhK56k=RW20_E_<i-x+rAaype@?2Qgu<C$#}imFSNe=okwE^O$"
    ">-s`F}^5VJ&EYUS4!0Wjz)N;8XAzUwYqT0;yi1=Z}ZFakK9-}+eMTTto_sj-;?Q!phanC4lE;Z$_oi1dg$^{>c?OmllsZ(UB"
    "KUY#w<})Fia}3&0OWss-E&~HtXHH+ImS?+G{E9rDVt^}nX=1Dj!*tDtQHKu7m$_N-=T{J7dF$!k7WklbdC^=?3wmIO4`WRtn"
    "_8_|bkp_1&^7KDY9Zdi{7GL8rIwboM?Wd;YPnr}yMy1)Qwj6MrqJa$CG;{-;8QFtC-q2Qb=wTquIAgF^FIABeQ%<`X8Uhv9`"
    "MCl4j5b1Z?6Q(nJK2a-h5`bTHLW>r+qA0Ryy-Z=%B23I_l<Sy1NAr8_6V2#3|-cz+5c3<<ooezA1E|aad4Uc>Qr0Xj*TRCn-"
    "Uv_Yixu+Gg?vlagr82-m`s&mGXH8al~=H17~{f`jbhcu`SICZ?Yh>lyu?FD%kBwp+M@PN>9cKI83$+I@?!H%&uCEXyyfgH6l"
    "`?lH5#D;`aZxY?@WYyl`aV_}FM_w$=-Z+j@s?)Yf%of=l=1sU_TWs@U_8QN91Moqmow~{N3ER&67s;kcNJRWE3Q5}A=7}8u@"
    "FlQ)_qwxOe^!%hk@nO*ysCuPrq<du~<^x_=qX2{psSG=gQT5DYM{CDVpPy|@dJ_u*_|WgKzVc(H3*S*ggDh*AU$o;t5|DYGd"
    "ZkO-&07mYz19Kai&5c<4b^Q&^(YmxJ?^yp(@lKuoYgtMTfseiKUpf!YFBHl^l0>}@U&`vm;_5*9FNR7_I!oi=d86}8sA%s%H"
    "Iby!#{&;Wm)tWG?~KFY6|*zVTspmeCUf~;`F-tYf;uU-Ft00S6CFO#&(_YOfLOV=E7!q%k`C2qT-b@%){B$sda;EUzf<Jf*Z"
    "@~S2}CHjO50d3sL5Ua~wQ37fto@Q?o?st?%4@OaQ|3-xd#Ob;XZ0-PO`Ru6_#=e>LWF-tu7x5#Mg@stkNEOB8xRFemW->1kO"
    "Z9M{`VFklWH#3i$4A{`4aPW7C|GblzmVFNJ$;W@L1_lZVbF4?6u`t&D9s?MxK{++P;aCvS>`0dyd=@Cg<JN#$WO(B+=?H-f!"
    "7#sY29cy~Fly@30PF_BmS@YY9+;nMS8c4AWS!_ql)(i~gmlJ_O&{9=WHl^Y-hu*t%&<m}OT-uqJlKN$-Z!d7uAm5wyr7@FT>"
    "{M&aQo=RQ8<KYFZpl+j^1{!kxIVX+QB5vtAz7S0H=2dgudPoS2Xn8(Z*dIyYMZL#-BWYk@qPXoL)5oZ==nVKYWedn58M6wc="
    "Vv#ER$-&?<bWFXv{tJb!8)C>*#U+QVHya{D<G}peai0$@uv6zYfl&L-wMn&^cd#RZ1_yk1P>|1A3k6^5C@#gjr&fEvfhfUO8"
    "kJt+QdK@&R+8hh?JqAFoJ=TeRKhH4qPJLCG6_Imo9u{5&kFyXm7@^yR|Q(*~=zo7BzLb}By=b=!Hw9_Jx}J;EbF8S3get8o0"
    "YM9;#e$jV{S#~rPnvbMa9_cN~-0)!s()24d<m<~J0oV;gpCP#B1xFm!}S!o6K-ksH%6YW%|H>&=4oKuln+KhX86Ss-mO6u!b"
    "qc<G3L8cokPrRj<R2IU5YU?f`wB35Bs|x%e9)$}^1?!gk*>Nf`Yp8jvCF~y187LHCWwYb4)?NOl>2$OtrF#o+O&50XKJN9P("
    "LRsYu)94==KJcLX{&G=q5kz|uQrP$isiKr6CBhQsmp2SgsYtEFOLet%6d(u*Ee+5e{ADlR?luHwhSC|zO}`fZkgC(AjAo_+k"
    "Y$8qK~=6ar;JBu8FK^fCYu#WosTvcJa*KEw`ZD$ZG{6Vp$x}4bDAs3Me*LGqC8ygnUg(3smN6oD(rrSUOEgA+ivh?WGzv?Zw"
    "7k*ok(3&y5Z#ym9BgInFy$+;+Cx35Q2q=W_`r&2xB&MH<J!PtPB>?KeOP+>ctlW{aUH5XuzQqV}tkkQ9s2hZGb+7GWBQb_i^"
    "aLEILyp;feQ0Gy<zCZ<Y~AZQv&rXpY}s)|hwV=<yur39t18Wdl=pU6L$2kLqv$H)iuJ8J(tn2ZvpWtgp1L}I~waY_*$#CZTd"
    "N@f{_A{cp8!H|(9Kz0amDQZa+O*9o`XA5{NQ@u{}g$#}rbpY8M9gCr&Q1FP#2T2SdggwsNBIcNFkgSUolC>Cu%7PYEkhHHM@"
    "gef&3abhNAfYK;%ci2F#4-gm)KfGGNl8mcN_9c*fO+xN?<42!f9SogPrk4ku~)us$&u{juv<67{{$>dD1?3=7A5#iS`N-yVf"
    "bu#u%`?U4rA%%IN$f^`20-^VES8W<<f33301tk(cmNNsxHC5mz+-VYs+Bb4_@y74}>3i+oJ4ly?t@s>>Bc9GkC<1FryhWmGz"
    "hjVvv25Pbh+^{#XCvJ@uB=YjQ}cC`6)B44$n&3k|)OU3v4tC)p2lhlG-31nrIuV(Uj|=-{bQcV;?d3=4)Z$O5g;O{Xp|6CN<"
    "W(1DCdgdZd#%zHowr$_c+(uESLpd*kz8IKL<h^Xccbj*Ms=QcWco;HXHm8c~(E7>*0!tF$U(+QH>Awvi|VH-zV9qk=IJoOy!"
    "D+(Y8k~J%7C?v5)0N6WoIyahsCs6do*(t)+N9~xR|0&2TE(@Eia20jEjy+Bl6I|}mvlk4Om&zfwV~r(xfcg++wv$rqtW>$eI"
    "-&iTe+rBXOLvg*@-6uJHxgghcL)c}WSo9Xq~8{wf*aK`+pckG6{8z{tdaLv?&j=PiIltzWwEAiP=hQMPe&%am`EwEG*8$p;Y"
    "L<A#@d8%7DwN$X751BQC|wxcVspfn3h8gN{odMmR@5=g6egEpdkT#(D!B{s-g<GBR>|i)geG{r3>DNmQNyS4KS{=YzBpENHz"
    "%}0!iX9HPObaoR$c3lUh!kCEd1?^~a}E%NK4`jxMsUD~(}-mo3u)uBL0O)v0c5OM})4<~S@*ac3Gdim~db_}b$dRt^G_H=MU"
    "0GMi(Wk8)ix8YbFT6X-VQI-0L;F)18tCMu+2;PVNyVMkX{v}htS5>r&`na3?wyN2oPaiT=>=%%)_V^@eAqt)MPfF&jtW0;C`"
    "Zq4?9QtgPEwWu~>u0XZuhe&#BGDExBoobxk>u(o1(3XlOT<hr~N8wQnNFb6#wf_P2^&iP_69(>Qh5AdDNW!q#EZ;8RvB0_g6"
    "W+GeaFsUyJk?)3ZTI`4l3JCVvt`d4Vx+=sEY=KKRvDQuv#qlZ(1%D9XJlmKB$0`_^!p+%V=*K_lJLQcgVrfaK~Vwh;ltUSZ("
    "{VfanRt({yA93NrOXELa)~TUTCIs;wtg28&RxobRq7b5(1=f?&gGH@rgVJytg`OCL>*^dx>9KFL-;19V(!HD)PjEj|?Fc=>o"
    "9_1Hw2Eyr8irV%ng<%s_t9&?~uEVdu_wme4(K)kx&%{4E(&(0M+TGy`e-rfKehga~#dQ6>n29H4v~dvF-be@Zx!Me8@lI4ao"
    "IkAJ^zIoyBk!|Jf3QM=`=-SaN~Vg1LqfcGs+mV!Hw9=<t|z$Ol)X#W!Znri#5?X^_dn=wgIHzA)tzfT!bc_=FRKPM*tQLam`"
    "=&H(z2uK5l7=&|w3)%ROOx1=)I6{n;x#7i~>H>Fgym1Qwo&QSpevJ@xjWpqVf&aSQ>@lyp53hQw$9%2Eerq>1?!M~9r`oZx5"
    "s7g<F;ujy$Q9K_e0BDefS#R~A$C$1widvf?&yz5R=m=3U5Bm!uS__{LlU6#-WWe@8<{A5`3MH#K%B?X*GZoPlp5Z38@R4Nbx"
    "IxrYQ9MX5))>Lsvy^e95O(b-@733jjcdGLWFRr`~gcf_?3KKLFWjd(e|`0qNcw4W>)iMET?u|30@IUz9<>#yhlo|OoKY6j=t"
    "4M9e4W358LSm!s*8{3SV&@vW?C`=SGSc{_4^L48r??+A4Te0piig?TVGM$HvPiZzabSSkbiPc{w@~mm7Sm)6;_4DNJEw%)FR"
    "|!O4h>xJEFa3{v^T9ci>?ha`}okbYDJLKuPl2ul&!;4$odZIQs1+iPa=5lhG6`f-?`6|fpIwmJMmGztQ_tUMzBSz;anmzSo0"
    "$lm7Fc(MI=<4sMeI(%!i3pGF+9)Bv0Kf1Fh{CXbk@XAVeCuQ=Z`lc6oUAPqdAG7;z-}bwtexUjNc$RvV9?r{}i$$8xxnC0pV"
    "#R}|pAES$cA=idd=!t#ru-W7rtZRv^MJ>bBmmK<J+yzT4vhii_3s+P%)}(yh6$U+gjG??yt5`!o8f9SEB#`IxfvQY#*YL%5$"
    "v26kzobcHiHbOm81(12t|`AuU3Rzh}ToFd+6>2G?S#6vVXYGIW-I^8Y~yKa$hnEsw`qAFN6)8Ya}7=`k_0I2TUt(Y`@+4en("
    "lDiA1U^6-bS@66LsAK~Tg+VOCVKiBZb~8tG?D$7ospsRw`TiYYg^H!~Py&&+6F^R6{Zb1k@Kl*@3(3R5sKFl$9BTy+9=L#AS"
    "rO4d}8iC8FE(_}G=7Kkdlvl)|Fh9I)r3WA7*wpLM<g?iP~Q%GV)S{anyT!-oLKsD*I9Hcb_C!j7qn5g1R)df;4QB;LZRm9e`"
    "=AoAq-xQoC_r_>qs-g%aSdK$NBd!)whe!u*17jiBHBnKDEMh&2DhyOmL$+o<olUGxIeTF^A+2+d*5=LZ=~V^suwD#5TI)tn6"
    "oJ@A;!>|sMjC)?LGE|1=TW{7cBN}d4I`Plx38d%LJ&8grEeL3u#__=BoFLIv(>Ud840lZ#Kzz3%|iQA^wf0WC?~r^I^3wX03"
    "JSIMD*9)g!MQWs*ph+nIsIJYDBrfCgqh``xx6|eH=7;GCna59y8?~UdbO;p`#_dy!5@sNDYgtUTrHd_Gwt+3%N~;<$_MDuCe"
    "7o5iC)j=1NL?hrMJ~^GDa>D>6y=vv}sViZlBA;xlcmwFXhmQ;d+4(8!?Rize8#6hfb3wehIEQy`nfu-&M3d=p|HYjTin=4qo"
    "0`pMvHZ>;+XDzK^YKIgvYYBZ@|vS5mR*{2bSq^P9TSwrb)Ic#@mtkt0N`$ORPJL^*sN)FakOUF+*2y4;97e*TQfcLZ(=SfoQ"
    "JR`N=csS0AiV8|fPbR#t-gY}te5U&++j{nt@SW5Ljuo1fEze_Q2JYkr1r=363fR*j<LZATv+LuQcr22BeSSQpz3bw)mgnV{D"
    "{xi$Y~HuuE;6U^7nGu`R?>qo&ZpaZ7Yn|1d+euc2!+vi4WThuERkY-=_;V4Cqvq0+8CI_OsvF2nGX^EJxCOojycm}hu*P9<?"
    "bwP2q}>N23%}5xrICY|9XB7#Jl=<(NiX8G-dGvV1XG~9;hJDMm3WF?4UxCrw>SXoxntNsC^mq*KXc+c}!-6+1g`OMjpl%TbW"
    "wqw-qq4Yvn58rscJnYb;q<j1(8(46yYz!EQy8v{RJqOZhWh=zDQVts+}8GdYFm)^$<xdmSBd(Dh&n3GD@}$WA)}er4gG!_n?"
    "iu%Tw%zHdtvzH__N;Gm;^1d%x#Lkj7t#bXDl;^^ijVhE-`Fbc^$iNgLgsr0{Iv>QOzB<)U+)Wx(_6yns<X_&>8tYNNVaR~Y2"
    "F1&JHOd<y1n~zqgOdEr{inC{?w#IUYfhVgEqgl&5_qdn8mubgZGRkwvqz)5F4v^9rR_~6<ugtb8<Pc4DY(?Vr+PJKWZN17}#"
    "LaG!V5@9u0(Xv3$;#>q;<CXGuL(?7I9S?v+D#f_>L+!B$GG;LAT7Iv$~LC3?8;@jDwILXj-6zJkSOY^Db5&*?Xpg%Tw$c=Gc"
    "m0dF-0uGe%eu@3kAzaFD~*GO*Mqa5Uw;zn$^Zus%UgN4ug#MyS!5=t}HHMDG?9RE9lH~(4^w{;QPqx9$1W8v?tfBc)v!sGm%"
    "V#T9E@BG>X<iZJ}6Gy7w+*)ilM-y6cWRb;LVr$=Q>$F)5SET_Nw$1JRSZL`ek=4@WX}JcgKzT`xwqXRkeOuE%9Kmd$CBra1z"
    "-v{5mcl~%OYYRz1;UfF^OV_gZ5_x2CX7T=yvRdelieH_Z3u+qUOn^a=+&nbv&nQGP9w-$pyjOHxm*obQJ5JDYw5qnzmeBsyK"
    "2hw)b_xAGsb5|ZnMT6jELU}q0R3oCEUrj`pvqn6%mD8@8j^D1ocBpk1V>IIPq$V@D<R6+og@aqR#C@0Y8BKm&eN|Burx7JXa"
    "FZ4x2akR{8$HsNc+B7DzZ<6QT(>HGCGBw+Wp|ZzWuO{;pRH`u8}0Cr`MH>zMUNA%r(870rC}FKla^+~75$!@FGiAvG5A5dY%"
    "6LxEz~+TUj8}1f$<8s=jrW4;s~oo)Y;365Qf9XZ7r2%?lc_pqU?fj(T2X#Mg}-D*zn0qq*wZ50Zh_jP5Z8iUnOBc4+UoVGCg"
    "R4H$)yG=9))Y-x+&$ISlu6G<4);((zB8DWEG@0)=Eyl_W%m)_uE^awExW@9=&Duh^9lGLBfLy>vs@@8YMLS#JrGM+`mMEW%^"
    "Fsd$+sR~V@)TX;k*BBXmU9I*NxmgqXPV#N~AAap@xSVp)nZdzf67x)gfFbP*7gA$HFVL|BvyU{GFp<1Vp&olVjd+qL|s&?m`"
    "Vh`mI1YQxGMI-NFe36$n3=SDZh?ktf=;nVnrk|3!)OH7#qdM&xXdgzH<rcYn%cO7h+%sz=e|9aKX)AbV6^6EHtFdN!BBYX9&"
    "j+OR-kMn2C_xS>8yM8H24WXfrkc}uR$RuHCfzw^f<SEsioyesQZh6~(v5*`n`wy%AT|UbQPBvlA_x#d3I>qVQnw0eGfcGuP!"
    "$xpb!;+UnCH;-=hPTkTA-AqFEb8t%|$~^K%Nvs1hhiHJf|YtNaHGrqcKwzR>}=pYeIH?HpOCR=E{?dNm!&$Pj0w?D<Hmx{1P"
    "4WvgHuXXCj05+d%Wj(5DRos7O=t({A_dT}$yic`R{a2eVLhh#1DI!Gl1|p}mg9*lZ@~Vj)H*i9hK)hVn8Qf3k*tkYYpP6ePo"
    "!5d=doH{}nWQTh!P(H*S@Swir2zl}?$+ur)}`mC>a6DDDqabme#%)~At$lqWBvRk25bkh=`sj8-#k}eOokK&4T<hog_tiK(@"
    "l=ygd*4ahK(Z`Lwv~c^~<72*E>HV5L%I%Pk_Ww|<h~yNiDLb%BZV2L)c4o1}ICW8Qc?3}mMzR*j55j|L+PP&BW?&GXJ9s&NK"
    "dtd(IU^>GnT;59+fsD@$&u;?TG<G4ZHE=7aA{ytTz?L_bo4yaPkx@dSH5{kf-TafT0ES%r+Z+7DQ7p@r^9mX9-Dg3(#!ccww"
    "4pc#K5jPyzbiB#!HQG2$N>>6VwLuwZxXky(dFuq=4s6+9O@6U9)twZmAA4px5v8<_=0bps<K-sBH$_Cq-jPAB|X&=hBz(!)A"
    "&NwLyu;j22bq)#_O^CZAjQB6N_;t6ZbLl@6jPyDbhIaaM-td6Mvo7<gcQe%mTk{C3+Y;B=m>Z;Ok(*Np}`n92}yJRNVAcwl%"
    "#g36Ux4J9^;h|z7CE|``xm6uJLHHNfn4Hjz+Kn0q%vkjVD%1G6vFz|MoiK=B8WU6bEUhSOTUM0ssVbKJFG}n4qAm3x0hq4?*"
    "hX(d@sXV?{o5E)|mRm~!qg+%|x}18~M_9W7dO?bY%-UK~=aNY1EJ?`)oY|<tB3L4IYKksQf;m<hBt9lt6d2n<QkG42^k|e#5"
    "5WS3BKK`hW*BBnK$T4*86hPm;n60HZJ5ao#-|c%L60TfA<T0RWz6ap2zF!_F$Li$L-mz_#o*OrbI$2SXB1(Bs}61|c4Pwjws"
    "KvHql}X;He-G&I1Z(aQ4pQZTtq_{cX$)R>#G&C-Dc&Ba$%rCC{8V<rZ@-mZJu80|3>c)VhRY(JMyad%M3$&b}^j%Y?{^G@;$"
    "_rgI%CV%`Ws*&9KR5-Hd>2<%1R^;SUt476#K-G=45%Z8P829;qNjArx3hyI?^yb<<@<$xF_(=H~|+z!%wy)`S-rl`&}0siG~"
    "37FNx<PnkY;K{*&GykOvlXkg1p%Y+P|b#$ds5jX;?%r-n{f)LXrSR6;tX8ITz9Xs^b2s14yLBm9YVA`Z-d|;=pxvfi0TWhSl"
    "_iI35eH2QW)bqBvf-$?o$!?WF&}S|h*_<=L09O7l=LZ?LO$@0#TKJPh-bJr2c3~ES;Y6<?VG9FHs>$ocZG?p%oxRN#=cdrLe"
    "hz!=e2J0_E_wbfOu$1nm<a9VOO1@k5w1h=Vr?xeN>IBST1*ph*}2IO9GPzCcplLwoi?#;<W<R42XxKSJG*z7VY>^Kxng$I^P"
    "AOUub0R&e6b<=Tgk1-``Fcmg8OBTargDiJYJS{dh1+z{Z2!lXQ)c3B7K_1CN$kEg-$hW;J6>hiaIZp@<BN$gi|vk`=4=?Gzw"
    "TxQq7kcI4278b3~ZH(^5;KaPgwT9<1Pg-B<=cO~1PccNBX~K}9GX+(-pyEDA8%Nw%buaF*#bFj%man$QdK>#x}lzFd9q*_eS"
    "$AmRk#{X03$4H=BnSBnY&hrRTEyi*q~vk9!_sYxw%SnDaRH5YEF%bI<Ckwjir^fI+F%+Q^o;*^3WK&wIO%RAXj$;(!w&g*gb"
    "l8<Kksoae8SZ>ifCml6!vDY@F`9HgwKrvDPvIK04=w^28l3)B?$rRy2L)PzJ=l"
)
TEXT = bz2.decompress(base64.b85decode(TEXT_BZ2_B85)).decode()
assert hashlib.sha256(TEXT.encode()).hexdigest() == "e90c0180e0c126f4b541c2c53cf5985bebb3965547edeaf1f6d942cccd3d5f29"
vocab = sorted(set(TEXT))
char_to_id = {c: i for i, c in enumerate(vocab)}
data = np.array([char_to_id[c] for c in TEXT], dtype=np.int32)
train_data = data[:len(data) * 9 // 10]


# capstone-01's model: the config, the modules and the loss.
@dataclasses.dataclass(frozen=True)
class Config:
    """The sizes of a decoder-only Transformer."""
    vocab_size: int       # V: how many distinct tokens
    context: int = 64     # T: the longest sequence the model reads (the rows of its position table)
    dim: int = 64         # d: the width of every position's vector
    heads: int = 4        # H: attention heads, of dim // heads dimensions each
    layers: int = 2       # L: Transformer blocks
    hidden: int = 256     # the width of each block's MLP
    tied: bool = False    # True: the output layer reuses token_embed's table, and there is no head


INIT = nnx.initializers.normal(stddev=0.02)   # every kernel and embedding; biases start at 0, LayerNorm scales at 1


class CausalSelfAttention(nnx.Module):
    """Multi-head self-attention in which position t reads positions 0..t only."""

    def __init__(self, config, *, rngs):
        self.heads = config.heads
        self.query = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.key = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.value = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.out = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)

    def __call__(self, x):
        """x: (..., T, dim) -> (..., T, dim)."""
        *batch, T, dim = x.shape
        head_dim = dim // self.heads
        split = lambda a: a.reshape(*batch, T, self.heads, head_dim)          # head h: columns h*head_dim, ...
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = jnp.einsum("...qhd,...khd->...hqk", q, k) / math.sqrt(head_dim)
        causal = jnp.tril(jnp.ones((T, T), dtype=bool))                        # row t: columns 0..t
        weights = jax.nn.softmax(jnp.where(causal, scores, -jnp.inf), axis=-1)  # masked BEFORE the softmax
        mixed = jnp.einsum("...hqk,...khd->...qhd", weights, v)
        return self.out(mixed.reshape(*batch, T, dim))


class MLP(nnx.Module):
    """Position by position: dim -> hidden -> dim, with a GELU between."""

    def __init__(self, config, *, rngs):
        self.fc1 = nnx.Linear(config.dim, config.hidden, kernel_init=INIT, rngs=rngs)
        self.fc2 = nnx.Linear(config.hidden, config.dim, kernel_init=INIT, rngs=rngs)

    def __call__(self, x):
        return self.fc2(jax.nn.gelu(self.fc1(x)))


class Block(nnx.Module):
    """A pre-norm block: x + attn(ln1(x)), then that plus mlp(ln2(that))."""

    def __init__(self, config, *, rngs):
        self.ln1 = nnx.LayerNorm(config.dim, rngs=rngs)
        self.attn = CausalSelfAttention(config, rngs=rngs)
        self.ln2 = nnx.LayerNorm(config.dim, rngs=rngs)
        self.mlp = MLP(config, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Transformer(nnx.Module):
    """Tokens (..., T), T <= config.context -> logits (..., T, vocab_size); row t scores the token after t."""

    def __init__(self, config, *, rngs):
        self.config = config
        self.token_embed = nnx.Embed(config.vocab_size, config.dim, embedding_init=INIT, rngs=rngs)
        self.position_embed = nnx.Embed(config.context, config.dim, embedding_init=INIT, rngs=rngs)
        self.blocks = nnx.List([Block(config, rngs=rngs) for _ in range(config.layers)])
        self.ln_f = nnx.LayerNorm(config.dim, rngs=rngs)
        if not config.tied:
            self.head = nnx.Linear(config.dim, config.vocab_size, use_bias=False, kernel_init=INIT, rngs=rngs)

    def __call__(self, tokens):
        x = self.token_embed(tokens) + self.position_embed(jnp.arange(tokens.shape[-1]))
        for block in self.blocks:
            x = block(x)
        x = self.ln_f(x)
        return self.token_embed.attend(x) if self.config.tied else self.head(x)


def loss_fn(model, inputs, targets):
    """Mean next-token cross-entropy over every position (capstone-01, Step 2)."""
    return optax.softmax_cross_entropy_with_integer_labels(model(inputs), targets).mean()


def param_spec(path):                      # capstone-02's Megatron layout
    *_, layer, kind = path
    if layer in ("query", "key", "value", "fc1"):
        return P(None, "model") if kind == "kernel" else P("model")
    return P("model", None) if layer in ("out", "fc2") and kind == "kernel" else P()


def place(node, mesh, spec_of):
    flat = nnx.to_flat_state(nnx.state(node))
    nnx.update(node, nnx.from_flat_state([(path, var.replace(jax.device_put(var[...], NamedSharding(mesh, spec_of(path)))))
                                          for path, var in flat]))
    return node


# The run: the model, AdamW, a data iterator whose state is one position, and a noise key split every step.
config = Config(vocab_size=len(vocab), context=16, dim=16, heads=4, layers=1, hidden=64)
mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
tx = optax.adamw(1e-2)


@nnx.jit
def step_fn(model, optimizer, inputs, targets, key):
    key, noise_key, char_key = jax.random.split(key, 3)
    replaced = jax.random.bernoulli(noise_key, 0.1, inputs.shape)          # 10 % of the characters
    inputs = jnp.where(replaced, jax.random.randint(char_key, inputs.shape, 0, config.vocab_size), inputs)
    loss, grads = nnx.value_and_grad(loss_fn)(model, inputs, targets)
    optimizer.update(model, grads)
    return loss, key


def next_batch(position):                  # 8 windows of 16 characters, read in order from `position`
    window = train_data[position:position + 8 * 16 + 1]
    batch = jax.device_put((window[:-1].reshape(8, 16), window[1:].reshape(8, 16)), NamedSharding(mesh, P("data", None)))
    return batch, position + 8 * 16


def fresh_run():
    model = place(Transformer(config, rngs=nnx.Rngs(0)), mesh, param_spec)
    moments = lambda path: param_spec(path[3:]) if len(path) > 3 and path[2] in ("mu", "nu") else P()
    optimizer = place(nnx.Optimizer(model, tx, wrt=nnx.Param), mesh, moments)
    return {"model": model, "optimizer": optimizer, "position": 0,
            "key": jax.device_put(jax.random.key(1000), NamedSharding(mesh, P()))}


def on_disk(run):                          # what a checkpoint holds
    return {"model": nnx.state(run["model"]), "optimizer": nnx.state(run["optimizer"]),
            "position": run["position"], "key": jax.random.key_data(run["key"])}


def train_steps(run, start, stop, manager=None, crash_at=None):
    losses = {}
    for step in range(start, stop):
        if step == crash_at:
            raise RuntimeError(f"killed before step {step}")
        (inputs, targets), run["position"] = next_batch(run["position"])
        loss, run["key"] = step_fn(run["model"], run["optimizer"], inputs, targets, run["key"])
        losses[step] = float(loss)
        if manager is not None:
            manager.save(step + 1, args=ocp.args.StandardSave(on_disk(run)))
    return losses


uninterrupted = fresh_run()
reference = train_steps(uninterrupted, 0, 8)

run_dir = pathlib.Path(tempfile.mkdtemp()).resolve() / "run"
options = ocp.CheckpointManagerOptions(save_interval_steps=2)
manager = ocp.CheckpointManager(run_dir, options=options)
try:
    train_steps(fresh_run(), 0, 8, manager, crash_at=5)
except RuntimeError as crash:
    manager.wait_until_finished()          # a preemption notice: the save in flight finishes
    print(crash, "| checkpoints:", sorted(p.name for p in run_dir.iterdir()))

manager = ocp.CheckpointManager(run_dir, options=options)     # the restarted process
run, latest = fresh_run(), manager.latest_step()
restored = manager.restore(latest, args=ocp.args.StandardRestore(jax.tree.map(ocp.utils.to_shape_dtype_struct, on_disk(run))))
nnx.update(run["model"], restored["model"])
nnx.update(run["optimizer"], restored["optimizer"])
run["position"], run["key"] = restored["position"], jax.random.wrap_key_data(restored["key"])
resumed = train_steps(run, latest, 8, manager)
manager.wait_until_finished()
manager.close()

for step, loss in resumed.items():
    print(f"step {step}: resumed {loss:.9f}, uninterrupted {reference[step]:.9f}")
arrays = lambda node: {path: var[...] for path, var in nnx.to_flat_state(nnx.state(node))}
for name in ("model", "optimizer"):
    a, b = arrays(run[name]), arrays(uninterrupted[name])
    assert all(np.array_equal(np.asarray(a[p]), np.asarray(b[p])) and a[p].sharding == b[p].sharding for p in a)
assert latest == 4 and all(resumed[step] == reference[step] for step in resumed)          # bit for bit
assert run["position"] == uninterrupted["position"] == 8 * 8 * 16
assert np.array_equal(jax.random.key_data(run["key"]), jax.random.key_data(uninterrupted["key"]))
print("the restarted run: the same", len(arrays(run["model"])) + len(arrays(run["optimizer"])), "arrays, bit for bit")
print("PASS: capstone-03")
