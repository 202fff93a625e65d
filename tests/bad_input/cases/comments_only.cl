// nothing here
/* nor
   here */
